import type { SseFrame } from '../support/replay-server.js';
import { field, items, type VendorWire, type WireCall, type WireUsage } from './vendor-wire.js';

/*
 * OpenAI Chat Completions streaming (`stream: true`, `stream_options.include_usage`): `data:`
 * lines of `chat.completion.chunk` objects, a final chunk with empty `choices` and `usage`, then
 * `data: [DONE]`. Tool calls stream as `delta.tool_calls[{ index, id, function: { name,
 * arguments } }]` fragments; OpenAI-compatible servers stream reasoning as
 * `delta.reasoning_content` (vLLM, DeepSeek) or `delta.reasoning` (Ollama, OpenRouter).
 */

function chunk(delta: Record<string, unknown>, finish: string | null = null): SseFrame {
  return {
    data: {
      id: 'chatcmpl-1',
      object: 'chat.completion.chunk',
      created: 1_700_000_000,
      model: 'replay',
      choices: [{ index: 0, delta, logprobs: null, finish_reason: finish }],
    },
  };
}

function usageFrames(usage: WireUsage): SseFrame[] {
  return [
    {
      data: {
        id: 'chatcmpl-1',
        object: 'chat.completion.chunk',
        created: 1_700_000_000,
        model: 'replay',
        choices: [],
        usage: {
          prompt_tokens: usage.input,
          completion_tokens: usage.output,
          total_tokens: usage.input + usage.output,
          prompt_tokens_details: { cached_tokens: usage.cached },
          ...(usage.reasoning === undefined ? {} : { completion_tokens_details: { reasoning_tokens: usage.reasoning } }),
        },
      },
    },
    { data: '[DONE]' },
  ];
}

/** The Chat Completions wire; `reasoningField` is where the server streams reasoning. */
export function openAIChatWire(options: { label: string; reasoningField: 'reasoning_content' | 'reasoning'; overflowStyle: 'openai' | 'vllm' }): VendorWire {
  return {
    label: options.label,
    streamsArguments: true,
    reportsReasoning: true,
    text: (chunks, usage) => [chunk({ role: 'assistant', content: '' }), ...chunks.map((c) => chunk({ content: c })), chunk({}, 'stop'), ...usageFrames(usage)],
    refusal: (chunks, usage) => [
      chunk({ role: 'assistant', content: '' }),
      ...chunks.map((c) => chunk({ content: c })),
      chunk({}, 'content_filter'),
      ...usageFrames(usage),
    ],
    toolCalls(calls: readonly WireCall[], usage) {
      const frames: SseFrame[] = [chunk({ role: 'assistant', content: null })];
      calls.forEach((call, index) => {
        frames.push(chunk({ tool_calls: [{ index, id: call.id, type: 'function', function: { name: call.name, arguments: '' } }] }));
        for (const piece of call.argumentChunks) frames.push(chunk({ tool_calls: [{ index, function: { arguments: piece } }] }));
      });
      return [...frames, chunk({}, 'tool_calls'), ...usageFrames(usage)];
    },
    thinking: (thinking, _signature, text, usage) => [
      chunk({ role: 'assistant', content: '' }),
      ...thinking.map((t) => chunk({ [options.reasoningField]: t })),
      ...text.map((t) => chunk({ content: t })),
      chunk({}, 'stop'),
      ...usageFrames(usage),
    ],
    partialText: (chunks) => [chunk({ role: 'assistant', content: '' }), ...chunks.map((c) => chunk({ content: c }))],
    overflowError: () =>
      options.overflowStyle === 'openai'
        ? {
            status: 400,
            body: {
              error: {
                message:
                  "This model's maximum context length is 128000 tokens. However, your messages resulted in 130012 tokens. Please reduce the length of the messages.",
                type: 'invalid_request_error',
                param: 'messages',
                code: 'context_length_exceeded',
              },
            },
          }
        : {
            // vLLM answers with a top-level error object.
            status: 400,
            body: {
              object: 'error',
              message: "This model's maximum context length is 4096 tokens. However, you requested 5120 tokens in the messages.",
              type: 'BadRequestError',
              param: null,
              code: 400,
            },
          },
    authError: (key) => ({
      status: 401,
      body: {
        error: {
          message: `Incorrect API key provided: ${key}. You can find your API key at https://platform.openai.com/account/api-keys.`,
          type: 'invalid_request_error',
          param: null,
          code: 'invalid_api_key',
        },
      },
    }),
    rateLimitError: () => ({
      status: 429,
      headers: { 'retry-after': '7' },
      body: { error: { message: 'Rate limit reached for requests. Please try again in 7s.', type: 'requests', param: null, code: 'rate_limit_exceeded' } },
    }),
    serverError: () => ({
      status: 500,
      body: { error: { message: 'The server had an error while processing your request. Sorry about that!', type: 'server_error', param: null, code: null } },
    }),
    toolCallId: (id) => id,
    keptSignature: () => undefined,
    systemPrompt: (body) => {
      const first = items(field(body, 'messages'))[0];
      return field(first, 'role') === 'system' ? (field(first, 'content') as string) : undefined;
    },
    lastUserText: (body) => {
      const user = items(field(body, 'messages'))
        .filter((m) => field(m, 'role') === 'user')
        .at(-1);
      const content = field(user, 'content');
      return typeof content === 'string'
        ? content
        : (items(content)
            .map((p) => field(p, 'text'))
            .join('') as string);
    },
    toolResultText: (body, id) => {
      const message = items(field(body, 'messages')).find((m) => field(m, 'role') === 'tool' && field(m, 'tool_call_id') === id);
      return field(message, 'content') as string | undefined;
    },
  };
}
