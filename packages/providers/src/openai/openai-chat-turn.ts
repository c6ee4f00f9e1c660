import type { AssistantMessage } from '@troupe/core';
import type { ChatCompletionChunk } from 'openai/resources/chat/completions';
import type { TokenCounts } from '../catalog/usage-cost.js';
import { ContentBuilder } from '../shared/content-builder.js';
import type { ProviderContext } from '../shared/provider-context.js';
import { finishedMessage, stopReasonOf, StreamFailure, type VendorStop, type VendorTurn } from '../shared/stream-runner.js';

/** Reasoning text OpenAI-compatible servers stream beside `content` (DeepSeek and vLLM: `reasoning_content`; Ollama, OpenRouter, Groq: `reasoning`). */
function reasoningOf(delta: ChatCompletionChunk.Choice.Delta): string | undefined {
  const fields = delta as unknown as Record<string, unknown>;
  const value = fields['reasoning_content'] ?? fields['reasoning'];
  return typeof value === 'string' ? value : undefined;
}

/**
 * One streamed Chat Completions reply: `delta.content` and refusals become text, reasoning fields
 * become thinking, `delta.tool_calls[i]` fragments become tool calls keyed by their index (a call
 * whose id or index a server leaves out gets one), `finish_reason` the stop reason (a refusal or
 * `content_filter` → `refusal`) and the last chunk's `usage` the token counts (`prompt_tokens`
 * includes the cached ones; `completion_tokens_details.reasoning_tokens`, where sent, the reasoning).
 */
export class ChatTurn implements VendorTurn<ChatCompletionChunk> {
  readonly builder = new ContentBuilder();
  readonly #ctx: ProviderContext;
  readonly #model: string;
  #finish: string | null = null;
  #tokens: TokenCounts = { input: 0, output: 0, cacheRead: 0, cacheWrite: 0 };
  #lastToolKey: string | undefined;
  #refused = false;

  constructor(ctx: ProviderContext, model: string) {
    this.#ctx = ctx;
    this.#model = model;
  }

  on(chunk: ChatCompletionChunk): void {
    if (chunk.usage) {
      const cached = chunk.usage.prompt_tokens_details?.cached_tokens ?? 0;
      this.#tokens = { input: Math.max(0, chunk.usage.prompt_tokens - cached), output: chunk.usage.completion_tokens, cacheRead: cached, cacheWrite: 0 };
      const reasoning = chunk.usage.completion_tokens_details?.reasoning_tokens;
      if (typeof reasoning === 'number') this.#tokens.reasoning = reasoning;
    }
    const choice = chunk.choices[0];
    if (choice === undefined) return;
    const { delta } = choice;
    const b = this.builder;
    const reasoning = reasoningOf(delta);
    if (reasoning !== undefined && reasoning !== '') {
      b.closeAll(['text']);
      b.thinking('thinking', reasoning);
    }
    if (typeof delta.refusal === 'string' && delta.refusal !== '') this.#refused = true;
    const text = delta.content ?? delta.refusal;
    if (typeof text === 'string' && text !== '') {
      b.close('thinking');
      b.text('text', text);
    }
    for (const call of delta.tool_calls ?? []) {
      b.closeAll(['text', 'thinking']);
      const key = call.index !== undefined ? `tool:${call.index}` : call.id !== undefined ? `tool:${call.id}` : (this.#lastToolKey ?? 'tool:0');
      if (!b.isOpen(key)) b.toolCall(key, call.id ?? `call_${b.toolCallCount + 1}`, call.function?.name ?? '');
      this.#lastToolKey = key;
      if (call.function?.arguments !== undefined) b.toolArguments(key, call.function.arguments);
    }
    if (choice.finish_reason !== null && choice.finish_reason !== undefined) {
      this.#finish = choice.finish_reason;
      b.closeAll();
    }
  }

  finish(): AssistantMessage {
    if (this.#finish === null) {
      throw new StreamFailure({ kind: 'network', message: 'the stream ended before the reply finished', retryable: true });
    }
    this.builder.closeAll();
    const filtered = this.#finish === 'content_filter';
    const reason: VendorStop = filtered || this.#refused ? 'refusal' : this.#finish === 'length' ? 'length' : 'stop';
    const message = finishedMessage({
      builder: this.builder,
      stopReason: stopReasonOf(reason, this.builder.toolCallCount),
      tokens: this.#tokens,
      pricing: this.#ctx.pricing(this.#model),
      model: `${this.#ctx.name}:${this.#model}`,
      timestamp: this.#ctx.now(),
      ...(reason === 'refusal' ? { errorMessage: filtered ? 'the reply was stopped by the content filter' : 'the model refused' } : {}),
    });
    return message;
  }
}
