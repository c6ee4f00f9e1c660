import type { AssistantMessage } from '@troupe/core';
import type { ResponseStreamEvent, ResponseUsage } from 'openai/resources/responses/responses';
import type { TokenCounts } from '../catalog/usage-cost.js';
import { ContentBuilder } from '../shared/content-builder.js';
import { classifyFailure } from '../shared/failure.js';
import type { ProviderContext } from '../shared/provider-context.js';
import { finishedMessage, stopReasonOf, StreamFailure, type VendorStop, type VendorTurn } from '../shared/stream-runner.js';
import { encodeReasoningItem } from './reasoning-item.js';

function tokensOf(usage: ResponseUsage): TokenCounts {
  const cached = usage.input_tokens_details?.cached_tokens ?? 0;
  const written = usage.input_tokens_details?.cache_write_tokens ?? 0;
  const tokens: TokenCounts = {
    input: Math.max(0, usage.input_tokens - cached - written),
    output: usage.output_tokens,
    cacheRead: cached,
    cacheWrite: written,
  };
  const reasoning = usage.output_tokens_details?.reasoning_tokens;
  if (typeof reasoning === 'number') tokens.reasoning = reasoning;
  return tokens;
}

/**
 * One streamed Responses reply, read from its semantic events: `response.output_text.delta` (and
 * refusals) → text; `response.reasoning_summary_text.delta` / `response.reasoning_text.delta` →
 * thinking, whose reasoning item (with its encrypted content) is kept in the signature at
 * `response.output_item.done`; `response.output_item.added` of a `function_call` plus
 * `response.function_call_arguments.delta` → a tool call; `response.completed` /
 * `response.incomplete` → stop reason and usage (`incomplete_details.reason: content_filter`, or a
 * refusal in the output → `refusal`; `output_tokens_details.reasoning_tokens` the reasoning);
 * `response.failed` and `error` → a failure.
 */
export class ResponsesTurn implements VendorTurn<ResponseStreamEvent> {
  readonly builder = new ContentBuilder();
  readonly #ctx: ProviderContext;
  readonly #model: string;
  readonly #summaryIndex = new Map<string, number>();
  #outcome: { reason: VendorStop; filtered: boolean; tokens: TokenCounts } | undefined;
  #refused = false;

  constructor(ctx: ProviderContext, model: string) {
    this.#ctx = ctx;
    this.#model = model;
  }

  on(event: ResponseStreamEvent): void {
    const b = this.builder;
    switch (event.type) {
      case 'response.output_item.added':
        if (event.item.type === 'function_call') {
          const itemId = event.item.id ?? event.item.call_id;
          b.toolCall(itemId, `${event.item.call_id}|${itemId}`, event.item.name);
        }
        return;
      case 'response.refusal.delta':
        this.#refused = true;
        b.text(`text:${event.item_id}`, event.delta);
        return;
      case 'response.output_text.delta':
        b.text(`text:${event.item_id}`, event.delta);
        return;
      case 'response.reasoning_summary_text.delta': {
        const key = `reasoning:${event.item_id}`;
        const last = this.#summaryIndex.get(key);
        if (last !== undefined && event.summary_index !== last) b.thinking(key, '\n\n');
        this.#summaryIndex.set(key, event.summary_index);
        b.thinking(key, event.delta);
        return;
      }
      case 'response.reasoning_text.delta':
        b.thinking(`reasoning:${event.item_id}`, event.delta);
        return;
      case 'response.function_call_arguments.delta':
        b.toolArguments(event.item_id, event.delta);
        return;
      case 'response.function_call_arguments.done':
        b.completeToolArguments(event.item_id, event.arguments);
        return;
      case 'response.output_item.done': {
        const item = event.item;
        if (item.type === 'function_call') {
          const itemId = item.id ?? item.call_id;
          b.completeToolArguments(itemId, item.arguments);
          b.close(itemId);
        } else if (item.type === 'reasoning') {
          const key = `reasoning:${item.id}`;
          const streamed = b.isOpen(key);
          b.signature(key, encodeReasoningItem(item), streamed ? {} : { redacted: true });
          b.close(key);
        } else if (item.type === 'message') {
          b.close(`text:${item.id}`);
        }
        return;
      }
      case 'response.completed':
      case 'response.incomplete': {
        const reason = event.response.incomplete_details?.reason;
        const filtered = reason === 'content_filter';
        this.#outcome = {
          reason: filtered || this.#refused ? 'refusal' : reason === 'max_output_tokens' ? 'length' : 'stop',
          filtered,
          tokens: event.response.usage ? tokensOf(event.response.usage) : { input: 0, output: 0, cacheRead: 0, cacheWrite: 0 },
        };
        b.closeAll();
        return;
      }
      case 'response.failed': {
        const error = event.response.error;
        throw new StreamFailure(classifyFailure({ message: error?.message ?? 'the response failed', ...(error?.code ? { code: error.code } : {}) }));
      }
      case 'error':
        throw new StreamFailure(classifyFailure({ message: event.message, ...(event.code === null ? {} : { code: event.code }) }));
      default:
        return;
    }
  }

  finish(): AssistantMessage {
    const outcome = this.#outcome;
    if (outcome === undefined) throw new StreamFailure({ kind: 'network', message: 'the stream ended before the response completed', retryable: true });
    return finishedMessage({
      builder: this.builder,
      stopReason: stopReasonOf(outcome.reason, this.builder.toolCallCount),
      tokens: outcome.tokens,
      pricing: this.#ctx.pricing(this.#model),
      model: `${this.#ctx.name}:${this.#model}`,
      timestamp: this.#ctx.now(),
      ...(outcome.reason === 'refusal' ? { errorMessage: outcome.filtered ? 'the reply was stopped by the content filter' : 'the model refused' } : {}),
    });
  }
}
