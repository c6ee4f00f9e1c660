import type { Provider } from '@troupe/core';
import { classifyFor } from '../shared/local-server.js';
import type { ProviderContext } from '../shared/provider-context.js';
import { classifySdkError } from '../shared/sdk-error.js';
import { runStream } from '../shared/stream-runner.js';
import { openAIClient, openAIRequestOptions } from './openai-client.js';
import { chatRequest } from './openai-chat-request.js';
import { ChatTurn } from './openai-chat-turn.js';

/**
 * A provider speaking OpenAI Chat Completions, for OpenAI itself and every OpenAI-compatible
 * server (Ollama, vLLM, LM Studio, llama.cpp, OpenRouter, Groq, Together) through its base URL.
 *
 * Contract: as the core `Provider`: `stream` never throws; it ends with one `done` or `error`;
 * the abort signal goes to the HTTP request, so aborting closes the connection at once.
 */
export function createOpenAIChatProvider(ctx: ProviderContext): Provider {
  const client = openAIClient(ctx);
  return {
    name: ctx.name,
    stream(request, { signal }) {
      const turn = new ChatTurn(ctx, request.model);
      return runStream({
        signal,
        scrub: ctx.scrub,
        turn,
        open: async () => (await client).chat.completions.create(chatRequest(request, ctx), await openAIRequestOptions(ctx, signal)),
        classify: classifyFor(ctx, classifySdkError),
      });
    },
  };
}
