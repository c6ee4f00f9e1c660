import type { AssistantMessage } from '@troupe/core';
import type { TokenCounts } from '../catalog/usage-cost.js';
import { ContentBuilder } from '../shared/content-builder.js';
import type { ProviderContext } from '../shared/provider-context.js';
import { finishedMessage, stopReasonOf, StreamFailure, type VendorStop, type VendorTurn } from '../shared/stream-runner.js';
import { geminiFailure } from './gemini-failure.js';
import { GENERATED_CALL_ID } from './gemini-request.js';
import type { GeminiChunk, GeminiPart } from './gemini-wire.js';

/** Finish reasons that mean the reply was stopped for its content: a refusal. */
const BLOCKED = new Set([
  'SAFETY',
  'RECITATION',
  'BLOCKLIST',
  'PROHIBITED_CONTENT',
  'SPII',
  'LANGUAGE',
  'IMAGE_SAFETY',
  'IMAGE_PROHIBITED_CONTENT',
  'IMAGE_RECITATION',
]);
/** Finish reasons that mean the model fumbled a function call: worth another try. */
const MALFORMED = new Set(['MALFORMED_FUNCTION_CALL', 'UNEXPECTED_TOOL_CALL', 'TOO_MANY_TOOL_CALLS']);

/**
 * One streamed Gemini reply. Chunks carry whole parts: text parts continue one text block,
 * `thought: true` parts one thinking block, each `functionCall` part is a complete tool call
 * (start, its arguments as one delta, end). A `thoughtSignature` on a thought part is that block's
 * signature; on any other part it becomes a signature-only (redacted) thinking part right after
 * it, so it can be sent back in place. `usageMetadata` (`thoughtsTokenCount`: the reasoning, counted
 * in the output) and `finishReason` come with the last chunk. A reply stopped for its content
 * (`SAFETY`, `RECITATION`, `BLOCKLIST`…) or a prompt blocked by `promptFeedback.blockReason` ends
 * as a `refusal`; `OTHER` (no reason given) as an `error`.
 */
export class GeminiTurn implements VendorTurn<GeminiChunk> {
  readonly builder = new ContentBuilder();
  readonly #ctx: ProviderContext;
  readonly #model: string;
  #tokens: TokenCounts = { input: 0, output: 0, cacheRead: 0, cacheWrite: 0 };
  #finishReason: string | undefined;
  /** Why the prompt itself was blocked, if it was. */
  #promptBlocked: string | undefined;
  #signatures = 0;
  readonly #callPrefix: string;

  constructor(ctx: ProviderContext, model: string) {
    this.#ctx = ctx;
    this.#model = model;
    this.#callPrefix = `${GENERATED_CALL_ID}${ctx.now().toString(36)}_`;
  }

  #signature(signature: string): void {
    const key = `signature:${this.#signatures++}`;
    this.builder.signature(key, signature, { redacted: true });
    this.builder.close(key);
  }

  #part(part: GeminiPart): void {
    const b = this.builder;
    if (part.thought === true) {
      b.close('text');
      b.thinking('thinking', part.text ?? '');
      if (part.thoughtSignature !== undefined) b.signature('thinking', part.thoughtSignature);
      return;
    }
    if (part.functionCall !== undefined) {
      b.closeAll(['text', 'thinking']);
      const key = `tool:${b.toolCallCount}`;
      b.toolCall(key, part.functionCall.id ?? `${this.#callPrefix}${b.toolCallCount + 1}`, part.functionCall.name);
      b.completeToolArguments(key, JSON.stringify(part.functionCall.args ?? {}));
      b.close(key);
      if (part.thoughtSignature !== undefined) this.#signature(part.thoughtSignature);
      return;
    }
    if (part.text !== undefined && part.text !== '') {
      b.close('thinking');
      b.text('text', part.text);
    }
    if (part.thoughtSignature !== undefined) {
      b.closeAll(['text', 'thinking']);
      this.#signature(part.thoughtSignature);
    }
  }

  on(chunk: GeminiChunk): void {
    if (chunk.error !== undefined) throw new StreamFailure(geminiFailure(chunk.error, undefined, undefined));
    const usage = chunk.usageMetadata;
    if (usage !== undefined) {
      const cached = usage.cachedContentTokenCount ?? 0;
      this.#tokens = {
        input: Math.max(0, (usage.promptTokenCount ?? 0) - cached),
        output: (usage.candidatesTokenCount ?? 0) + (usage.thoughtsTokenCount ?? 0),
        cacheRead: cached,
        cacheWrite: 0,
      };
      if (usage.thoughtsTokenCount !== undefined) this.#tokens.reasoning = usage.thoughtsTokenCount;
    }
    const blocked = chunk.promptFeedback?.blockReason;
    if (blocked !== undefined) {
      this.#promptBlocked = blocked;
      this.#finishReason ??= blocked;
    }
    const candidate = chunk.candidates?.[0];
    for (const part of candidate?.content?.parts ?? []) this.#part(part);
    if (candidate?.finishReason !== undefined) {
      this.#finishReason = candidate.finishReason;
      this.builder.closeAll();
    }
  }

  finish(): AssistantMessage {
    const reason = this.#finishReason;
    if (reason === undefined) throw new StreamFailure({ kind: 'network', message: 'the stream ended before a finish reason', retryable: true });
    if (MALFORMED.has(reason)) throw new StreamFailure({ kind: 'api', message: `Gemini could not complete a function call (${reason})`, retryable: true });
    this.builder.closeAll();
    const blocked = this.#promptBlocked;
    const stop: VendorStop =
      blocked !== undefined || BLOCKED.has(reason) ? 'refusal' : reason === 'MAX_TOKENS' ? 'length' : reason === 'OTHER' ? 'error' : 'stop';
    const why =
      blocked !== undefined
        ? `Gemini blocked the prompt: ${blocked}`
        : stop === 'refusal' || stop === 'error'
          ? `Gemini stopped the reply: ${reason}`
          : undefined;
    return finishedMessage({
      builder: this.builder,
      stopReason: stopReasonOf(stop, this.builder.toolCallCount),
      tokens: this.#tokens,
      pricing: this.#ctx.pricing(this.#model),
      model: `${this.#ctx.name}:${this.#model}`,
      timestamp: this.#ctx.now(),
      ...(why === undefined ? {} : { errorMessage: why }),
    });
  }
}
