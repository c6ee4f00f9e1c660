import type Anthropic from '@anthropic-ai/sdk';
import type { Provider } from '@troupe/core';
import type { AnthropicOptions } from '../provider-options.js';
import { lazyClient } from '../shared/lazy-client.js';
import { classifyFor } from '../shared/local-server.js';
import type { ProviderContext } from '../shared/provider-context.js';
import { classifySdkError } from '../shared/sdk-error.js';
import { runStream } from '../shared/stream-runner.js';
import { cachePlan } from './anthropic-cache.js';
import { anthropicRequest } from './anthropic-request.js';
import { AnthropicTurn } from './anthropic-turn.js';

/**
 * A provider speaking the Anthropic Messages API through the official SDK (its retries, logging
 * and tracing off), with prompt caching (breakpoints on the system prompt, the last tool and the
 * second-to-last message unless configured otherwise) and thinking blocks sent back with their
 * signatures.
 *
 * Contract: as the core `Provider`: `stream` never throws; it ends with one `done` or `error`;
 * the abort signal goes to the HTTP request, so aborting closes the connection at once.
 */
export function createAnthropicProvider(ctx: ProviderContext, options: Pick<AnthropicOptions, 'cache'> = {}): Provider {
  // The key goes with each request (`ctx.key()`); the client's own is a placeholder that keeps the
  // SDK from looking for credentials elsewhere.
  // The SDK is loaded with the first provider, not with the package (see `lazyClient`).
  const client: Promise<Anthropic> = lazyClient(async () => {
    const { default: Anthropic } = await import('@anthropic-ai/sdk');
    return new Anthropic({
      apiKey: 'per-request',
      authToken: null,
      baseURL: ctx.baseUrl,
      maxRetries: 0,
      defaultHeaders: { ...ctx.headers },
      logLevel: 'off',
      openTelemetry: false,
    });
  });
  const plan = cachePlan(options.cache);
  return {
    name: ctx.name,
    stream(request, { signal }) {
      const turn = new AnthropicTurn(ctx, request.model);
      return runStream({
        signal,
        scrub: ctx.scrub,
        turn,
        open: async () => {
          const key = await ctx.key();
          return (await client).messages.create(
            anthropicRequest(request, ctx, plan),
            key === undefined ? { signal } : { signal, headers: { 'x-api-key': key } },
          );
        },
        classify: classifyFor(ctx, classifySdkError),
      });
    },
  };
}
