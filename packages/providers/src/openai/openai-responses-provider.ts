import type { Provider } from '@troupe/core';
import { classifyFor } from '../shared/local-server.js';
import type { ProviderContext } from '../shared/provider-context.js';
import { classifySdkError } from '../shared/sdk-error.js';
import { runStream } from '../shared/stream-runner.js';
import { openAIClient, openAIRequestOptions } from './openai-client.js';
import { responsesRequest } from './openai-responses-request.js';
import { ResponsesTurn } from './openai-responses-turn.js';

/**
 * A provider speaking the OpenAI Responses API (the `openai:` models), stateless: each call sends
 * the whole history, with the reasoning items of earlier turns so reasoning models keep their
 * train of thought across tool calls.
 *
 * Contract: as the core `Provider`: `stream` never throws; it ends with one `done` or `error`;
 * the abort signal goes to the HTTP request, so aborting closes the connection at once.
 */
export function createOpenAIResponsesProvider(ctx: ProviderContext): Provider {
  const client = openAIClient(ctx);
  return {
    name: ctx.name,
    stream(request, { signal }) {
      const turn = new ResponsesTurn(ctx, request.model);
      return runStream({
        signal,
        scrub: ctx.scrub,
        turn,
        open: async () => (await client).responses.create(responsesRequest(request, ctx), await openAIRequestOptions(ctx, signal)),
        classify: classifyFor(ctx, classifySdkError),
      });
    },
  };
}
