/**
 * Proves what the Chat Completions provider sends beyond the shared contract: images in user
 * messages as data URLs, tool-result images in a user message after the tool messages (tool
 * messages take text only), assistant tool calls replayed as `tool_calls`, usage asked for,
 * `max_completion_tokens` and a mapped `reasoning_effort` for OpenAI but `max_tokens` for
 * compatible servers, a missing key for local servers, `length` stops, and a stream that ends
 * without a finish reason treated as a dropped connection.
 */
import type { AssistantMessage, LlmMessage, ProviderRequest } from '@troupe/core';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createProvider } from '../../src/create-provider.js';
import { call, doneOf, failureOf } from '../support/replay-call.js';
import { ReplayServer } from '../support/replay-server.js';
import { replayProvider } from '../support/subjects.js';
import { openAIChatWire } from '../wire/openai-chat-wire.js';
import { field, items } from '../wire/vendor-wire.js';

const wire = openAIChatWire({ label: 'chat', reasoningField: 'reasoning_content', overflowStyle: 'openai' });
const USAGE = { input: 50, cached: 0, output: 5 };

const CALLED: AssistantMessage = {
  role: 'assistant',
  content: [
    { type: 'thinking', thinking: 'hmm' },
    { type: 'text', text: 'Shooting.' },
    { type: 'toolCall', id: 'call_1', name: 'shot', arguments: { x: 1 } },
  ],
  stopReason: 'toolUse',
  model: 'openai-chat:gpt-5.4-mini',
  timestamp: 2,
  usage: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, totalTokens: 0, cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, total: 0 } },
};
const HISTORY: LlmMessage[] = [
  {
    role: 'user',
    content: [
      { type: 'text', text: 'Look:' },
      { type: 'image', data: 'aW1n', mimeType: 'image/png' },
    ],
    timestamp: 1,
  },
  CALLED,
  {
    role: 'toolResult',
    toolCallId: 'call_1',
    toolName: 'shot',
    content: [
      { type: 'text', text: 'here' },
      { type: 'image', data: 'cG5n', mimeType: 'image/png' },
    ],
    isError: false,
    timestamp: 3,
  },
];

describe('Chat Completions requests', () => {
  let server: ReplayServer;
  beforeAll(async () => {
    server = await ReplayServer.start();
  });
  afterAll(() => server.close());
  beforeEach(() => server.reset());

  async function send(provider: string, request: Partial<ProviderRequest>): Promise<unknown> {
    server.enqueue({ events: wire.text(['ok'], USAGE) });
    doneOf(await call(replayProvider(provider, `${server.url}/v1`), { model: 'gpt-5.4-mini', systemPrompt: 'Sys.', messages: HISTORY, tools: [], ...request }));
    return server.requests[0]?.body;
  }

  it('sends images as data URLs and tool-result images after the tool messages', async () => {
    const body = await send('openai-chat', {});
    expect(server.requests[0]?.url).toBe('/v1/chat/completions');
    expect(body).toMatchObject({ stream: true, stream_options: { include_usage: true } });
    expect(items(field(body, 'messages'))).toEqual([
      { role: 'system', content: 'Sys.' },
      {
        role: 'user',
        content: [
          { type: 'text', text: 'Look:' },
          { type: 'image_url', image_url: { url: 'data:image/png;base64,aW1n' } },
        ],
      },
      { role: 'assistant', content: 'Shooting.', tool_calls: [{ id: 'call_1', type: 'function', function: { name: 'shot', arguments: '{"x":1}' } }] },
      { role: 'tool', tool_call_id: 'call_1', content: 'here\n(1 image(s) follow)' },
      {
        role: 'user',
        content: [
          { type: 'text', text: 'Images returned by the tools above:' },
          { type: 'image_url', image_url: { url: 'data:image/png;base64,cG5n' } },
        ],
      },
    ]);
  });

  it('uses max_completion_tokens and reasoning_effort for OpenAI, max_tokens for compatible servers', async () => {
    const openai = await send('openai-chat', { maxTokens: 300, thinking: 'minimal' });
    expect(openai).toMatchObject({ max_completion_tokens: 300, reasoning_effort: 'low' });
    server.reset();
    const compatible = await send('vllm', { maxTokens: 300, thinking: 'high', temperature: 0.1 });
    expect(compatible).toMatchObject({ max_tokens: 300, reasoning_effort: 'high', temperature: 0.1 });
    expect(compatible).not.toHaveProperty('max_completion_tokens');
    server.reset();
    const off = await send('vllm', { thinking: 'off' });
    expect(off).not.toHaveProperty('reasoning_effort');
  });

  it('sends xhigh to OpenAI models that have it, high to compatible servers; sends top_p', async () => {
    expect(await send('openai-chat', { thinking: 'xhigh', topP: 0.5 })).toMatchObject({ reasoning_effort: 'xhigh', top_p: 0.5 });
    server.reset();
    expect(await send('vllm', { thinking: 'xhigh' })).toMatchObject({ reasoning_effort: 'high' });
  });

  it('talks to a local server without a key', async () => {
    server.enqueue({ events: wire.text(['local'], USAGE) });
    const provider = createProvider({ provider: 'ollama', model: 'qwen3' }, { baseUrl: `${server.url}/v1`, env: {} });
    const message = doneOf(await call(provider, { model: 'qwen3', messages: [{ role: 'user', content: 'hi', timestamp: 1 }], tools: [] }));
    expect(message.model).toBe('ollama:qwen3');
    expect(message.usage.cost).toEqual({ input: 0, output: 0, cacheRead: 0, cacheWrite: 0, total: 0 });
  });

  it('ends a reply that streams a refusal (structured outputs) with stop reason refusal', async () => {
    const frames = wire.text([], USAGE);
    frames.splice(1, 0, {
      data: {
        id: 'chatcmpl-1',
        object: 'chat.completion.chunk',
        created: 1,
        model: 'replay',
        choices: [{ index: 0, delta: { refusal: "I'm sorry, I can't." }, logprobs: null, finish_reason: null }],
      },
    });
    server.enqueue({ events: frames });
    const provider = replayProvider('openai-chat', `${server.url}/v1`);
    const message = doneOf(await call(provider, { model: 'gpt-5.4-mini', messages: [{ role: 'user', content: 'hi', timestamp: 1 }], tools: [] }));
    expect(message).toMatchObject({ stopReason: 'refusal', errorMessage: 'the model refused', content: [{ type: 'text', text: "I'm sorry, I can't." }] });
  });

  it('stops with length on finish_reason length, and fails a stream without a finish reason', async () => {
    const frames = wire.text(['cut'], USAGE);
    const stopIndex = frames.findIndex((f) => JSON.stringify(f.data).includes('"finish_reason":"stop"'));
    frames[stopIndex] = { data: JSON.stringify(frames[stopIndex]?.data).replace('"finish_reason":"stop"', '"finish_reason":"length"') };
    server.enqueue({ events: frames });
    const provider = replayProvider('openai-chat', `${server.url}/v1`);
    const request: ProviderRequest = { model: 'gpt-5.4-mini', messages: [{ role: 'user', content: 'hi', timestamp: 1 }], tools: [] };
    expect(doneOf(await call(provider, request)).stopReason).toBe('length');
    server.enqueue({ events: [...wire.partialText(['half']), { data: '[DONE]' }] });
    expect(failureOf(await call(provider, request))).toMatchObject({ kind: 'network', retryable: true });
  });
});
