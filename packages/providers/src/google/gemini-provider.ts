import type { Provider } from '@troupe/core';
import { networkFailure } from '../shared/failure.js';
import { classifyFor } from '../shared/local-server.js';
import type { ProviderContext } from '../shared/provider-context.js';
import { sseEvents } from '../shared/sse.js';
import { runStream, StreamFailure } from '../shared/stream-runner.js';
import { responseFailure } from './gemini-failure.js';
import { geminiRequest } from './gemini-request.js';
import { GeminiTurn } from './gemini-turn.js';
import type { GeminiChunk } from './gemini-wire.js';

async function* chunksOf(body: ReadableStream<Uint8Array>): AsyncGenerator<GeminiChunk> {
  for await (const event of sseEvents(body)) {
    let chunk: unknown;
    try {
      chunk = JSON.parse(event.data);
    } catch {
      throw new StreamFailure({ kind: 'api', message: `Gemini sent a chunk that is not JSON: ${event.data.slice(0, 200)}`, retryable: true });
    }
    if (typeof chunk === 'object' && chunk !== null) yield chunk as GeminiChunk;
  }
}

/**
 * A provider speaking the Gemini API (`models/{model}:streamGenerateContent?alt=sse`) with
 * `fetch` rather than the `@google/genai` SDK: the SDK drops response headers from its errors (so
 * `Retry-After` is lost), retries on its own unless told not to, and writes warnings to the
 * console; the wire format is plain JSON over SSE. The key goes in the `x-goog-api-key` header,
 * never in the URL.
 *
 * Contract: as the core `Provider`: `stream` never throws; it ends with one `done` or `error`;
 * the abort signal goes to `fetch`, so aborting closes the connection at once.
 */
export function createGeminiProvider(ctx: ProviderContext): Provider {
  return {
    name: ctx.name,
    stream(request, { signal }) {
      const turn = new GeminiTurn(ctx, request.model);
      const url = `${ctx.baseUrl}/models/${encodeURIComponent(request.model)}:streamGenerateContent?alt=sse`;
      const headers: Record<string, string> = { 'content-type': 'application/json', accept: 'text/event-stream', ...ctx.headers };
      return runStream({
        signal,
        scrub: ctx.scrub,
        turn,
        classify: classifyFor(ctx, networkFailure),
        async open() {
          const key = await ctx.key();
          if (key !== undefined) headers['x-goog-api-key'] = key;
          const body = JSON.stringify(geminiRequest(request, `${ctx.name}:${request.model}`, ctx.modelInfo(request.model)));
          const response = await fetch(url, { method: 'POST', headers, body, signal });
          if (!response.ok) throw new StreamFailure(await responseFailure(response));
          if (response.body === null) throw new StreamFailure({ kind: 'api', message: 'Gemini answered without a body', retryable: true });
          return chunksOf(response.body);
        },
      });
    },
  };
}
