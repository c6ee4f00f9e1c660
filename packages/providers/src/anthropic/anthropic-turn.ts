import type { AssistantMessage } from '@troupe/core';
import type { RawMessageStreamEvent } from '@anthropic-ai/sdk/resources/messages/messages';
import type { TokenCounts } from '../catalog/usage-cost.js';
import { ContentBuilder } from '../shared/content-builder.js';
import type { ProviderContext } from '../shared/provider-context.js';
import { finishedMessage, stopReasonOf, StreamFailure, type VendorStop, type VendorTurn } from '../shared/stream-runner.js';

interface UsageFields {
  input_tokens?: number | null;
  output_tokens?: number | null;
  cache_read_input_tokens?: number | null;
  cache_creation_input_tokens?: number | null;
}

/**
 * One streamed Messages reply: `content_block_start`/`_delta`/`_stop` of `text` (text_delta),
 * `thinking` (thinking_delta, signature_delta), `redacted_thinking` (kept as a redacted thinking
 * part whose signature is the encrypted data) and `tool_use` (input_json_delta); usage from
 * `message_start` and the cumulative counts of `message_delta` (Anthropic does not split out
 * thinking tokens: they are in `output_tokens`); the stop reason from `message_delta` (`refusal`
 * when the model or its safety classifier declined). Other block types (server tools, citations) are skipped.
 */
export class AnthropicTurn implements VendorTurn<RawMessageStreamEvent> {
  readonly builder = new ContentBuilder();
  readonly #ctx: ProviderContext;
  readonly #model: string;
  #tokens: TokenCounts = { input: 0, output: 0, cacheRead: 0, cacheWrite: 0 };
  #stopReason: string | null = null;
  #stopped = false;

  constructor(ctx: ProviderContext, model: string) {
    this.#ctx = ctx;
    this.#model = model;
  }

  #usage(usage: UsageFields): void {
    const t = this.#tokens;
    if (typeof usage.input_tokens === 'number') t.input = usage.input_tokens;
    if (typeof usage.output_tokens === 'number') t.output = usage.output_tokens;
    if (typeof usage.cache_read_input_tokens === 'number') t.cacheRead = usage.cache_read_input_tokens;
    if (typeof usage.cache_creation_input_tokens === 'number') t.cacheWrite = usage.cache_creation_input_tokens;
  }

  on(event: RawMessageStreamEvent): void {
    const b = this.builder;
    switch (event.type) {
      case 'message_start':
        this.#usage(event.message.usage);
        return;
      case 'content_block_start': {
        const key = `block:${event.index}`;
        const block = event.content_block;
        if (block.type === 'text') b.text(key, block.text);
        else if (block.type === 'thinking') {
          b.thinking(key, block.thinking);
          if (block.signature !== '') b.signature(key, block.signature);
        } else if (block.type === 'redacted_thinking') b.signature(key, block.data, { redacted: true });
        else if (block.type === 'tool_use') b.toolCall(key, block.id, block.name);
        return;
      }
      case 'content_block_delta': {
        const key = `block:${event.index}`;
        const delta = event.delta;
        if (delta.type === 'text_delta') b.text(key, delta.text);
        else if (delta.type === 'thinking_delta') b.thinking(key, delta.thinking);
        else if (delta.type === 'signature_delta') b.signature(key, delta.signature, { append: true });
        else if (delta.type === 'input_json_delta') b.toolArguments(key, delta.partial_json);
        return;
      }
      case 'content_block_stop':
        b.close(`block:${event.index}`);
        return;
      case 'message_delta':
        this.#usage(event.usage);
        if (event.delta.stop_reason !== null) this.#stopReason = event.delta.stop_reason;
        return;
      case 'message_stop':
        this.#stopped = true;
        return;
    }
  }

  finish(): AssistantMessage {
    if (!this.#stopped) throw new StreamFailure({ kind: 'network', message: 'the stream ended before message_stop', retryable: true });
    this.builder.closeAll();
    const stop = this.#stopReason;
    const reason: VendorStop = stop === 'refusal' ? 'refusal' : stop === 'max_tokens' || stop === 'model_context_window_exceeded' ? 'length' : 'stop';
    return finishedMessage({
      builder: this.builder,
      stopReason: stopReasonOf(reason, this.builder.toolCallCount),
      tokens: this.#tokens,
      pricing: this.#ctx.pricing(this.#model),
      model: `${this.#ctx.name}:${this.#model}`,
      timestamp: this.#ctx.now(),
      ...(reason === 'refusal' ? { errorMessage: 'Claude declined to answer (stop_reason: refusal)' } : {}),
    });
  }
}
