/**
 * Proves what the Anthropic provider sends and keeps beyond the shared contract: the default
 * prompt-caching breakpoints (system prompt, last tool, second-to-last message) and their
 * options (off, `last`, 1-hour TTL), cache read/write tokens in usage and cost, thinking budgets
 * for older models and adaptive thinking with an effort for newer ones (`xhigh` where the model has it), thinking blocks and
 * redacted thinking sent back with their signatures to the same model only, tool results
 * (with images and errors) merged into one user turn, and an in-stream `overloaded_error` event
 * classified as a retryable api failure.
 */
import type { AssistantMessage, LlmMessage, ProviderRequest } from '@troupe/core';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createModelCatalog } from '../../src/catalog/model-catalog.js';
import type { CreateProviderOptions } from '../../src/create-provider.js';
import { call, doneOf, failureOf } from '../support/replay-call.js';
import { ReplayServer } from '../support/replay-server.js';
import { replayProvider } from '../support/subjects.js';
import { anthropicWire } from '../wire/anthropic-wire.js';
import { field, items, type WireUsage } from '../wire/vendor-wire.js';

const wire = anthropicWire();
const USAGE: WireUsage = { input: 100, cached: 0, output: 10 };
const ADD = { name: 'add', description: 'Adds.', parameters: { type: 'object', properties: {} } };
const ECHO = { name: 'echo', description: 'Echoes.', parameters: { type: 'object', properties: {} } };

function assistant(model: string, content: AssistantMessage['content']): AssistantMessage {
  return {
    role: 'assistant',
    content,
    stopReason: 'toolUse',
    model,
    timestamp: 2,
    usage: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, totalTokens: 0, cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, total: 0 } },
  };
}

const HISTORY: LlmMessage[] = [
  { role: 'user', content: 'Add 1 and 2, and echo hi.', timestamp: 1 },
  assistant('anthropic:claude-sonnet-4-5', [
    { type: 'thinking', thinking: 'I will call both.', signature: 'sig-1' },
    { type: 'thinking', thinking: '', signature: 'cmVkYWN0ZWQ=', redacted: true },
    { type: 'text', text: 'Calling.' },
    { type: 'toolCall', id: 'toolu_1', name: 'add', arguments: { a: 1, b: 2 } },
    { type: 'toolCall', id: 'call_x|fc_y', name: 'echo', arguments: { text: 'hi' } },
  ]),
  {
    role: 'toolResult',
    toolCallId: 'toolu_1',
    toolName: 'add',
    content: [
      { type: 'text', text: '3' },
      { type: 'image', data: 'aW1n', mimeType: 'image/png' },
    ],
    isError: false,
    timestamp: 3,
  },
  { role: 'toolResult', toolCallId: 'call_x|fc_y', toolName: 'echo', content: [{ type: 'text', text: 'boom' }], isError: true, timestamp: 4 },
];

describe('Anthropic requests', () => {
  let server: ReplayServer;
  beforeAll(async () => {
    server = await ReplayServer.start();
  });
  afterAll(() => server.close());
  beforeEach(() => server.reset());

  async function send(
    request: Partial<ProviderRequest>,
    options: CreateProviderOptions = {},
    usage: WireUsage = USAGE,
  ): Promise<{ body: unknown; message: AssistantMessage }> {
    server.enqueue({ events: wire.text(['ok'], usage) });
    const provider = replayProvider('anthropic', server.url, options);
    const events = await call(provider, { model: 'claude-sonnet-4-5', systemPrompt: 'Be brief.', messages: HISTORY, tools: [ADD, ECHO], ...request });
    return { body: server.requests[0]?.body, message: doneOf(events) };
  }

  it('sets cache breakpoints on the system prompt, the last tool and the second-to-last message by default', async () => {
    const { body } = await send({});
    expect(field(body, 'system')).toEqual([{ type: 'text', text: 'Be brief.', cache_control: { type: 'ephemeral' } }]);
    expect(items(field(body, 'tools')).map((t) => field(t, 'cache_control'))).toEqual([undefined, { type: 'ephemeral' }]);
    const messages = items(field(body, 'messages'));
    expect(messages).toHaveLength(3);
    const marked = messages.map((m) =>
      items(field(m, 'content'))
        .filter((b) => field(b, 'cache_control') !== undefined)
        .map((b) => field(b, 'type')),
    );
    // The assistant turn is second-to-last; its last block that can carry a breakpoint is the last tool_use.
    expect(marked).toEqual([[], ['tool_use'], []]);
  });

  it('honours cache: false, message: last and a 1-hour TTL', async () => {
    const off = await send({}, { cache: false });
    expect(field(off.body, 'system')).toBe('Be brief.');
    expect(JSON.stringify(off.body)).not.toContain('cache_control');
    server.reset();
    const last = await send({}, { cache: { system: false, tools: false, message: 'last', ttl: '1h' } });
    expect(field(last.body, 'system')).toBe('Be brief.');
    const lastTurn = items(field(last.body, 'messages')).at(-1);
    expect(items(field(lastTurn, 'content')).at(-1)).toMatchObject({ type: 'tool_result', cache_control: { type: 'ephemeral', ttl: '1h' } });
  });

  it('reports cache reads and writes in usage and prices them', async () => {
    const { message } = await send({}, {}, { input: 3000, cached: 1000, cacheWrite: 1500, output: 20 });
    expect(message.usage).toMatchObject({ input: 500, cacheRead: 1000, cacheWrite: 1500, output: 20, totalTokens: 3020 });
    const p = createModelCatalog().find('anthropic', 'claude-sonnet-4-5')?.prices;
    if (p === undefined) throw new Error('no catalog entry');
    expect(message.usage.cost.cacheWrite).toBeCloseTo((1500 * p.cacheWrite) / 1e6, 12);
    expect(message.usage.cost.cacheRead).toBeCloseTo((1000 * p.cacheRead) / 1e6, 12);
  });

  it('sends thinking blocks (and redacted thinking) back with their signatures to the same model', async () => {
    const { body } = await send({});
    const turn = items(field(body, 'messages'))[1];
    expect(items(field(turn, 'content'))).toEqual([
      { type: 'thinking', thinking: 'I will call both.', signature: 'sig-1' },
      { type: 'redacted_thinking', data: 'cmVkYWN0ZWQ=' },
      { type: 'text', text: 'Calling.' },
      { type: 'tool_use', id: 'toolu_1', name: 'add', input: { a: 1, b: 2 } },
      { type: 'tool_use', id: 'call_x_fc_y', name: 'echo', input: { text: 'hi' }, cache_control: { type: 'ephemeral' } },
    ]);
  });

  it('leaves thinking out for another model', async () => {
    const { body } = await send({ model: 'claude-opus-4-5' });
    const turn = items(field(body, 'messages'))[1];
    expect(items(field(turn, 'content')).map((b) => field(b, 'type'))).toEqual(['text', 'tool_use', 'tool_use']);
  });

  it('merges tool results into one user turn, with images and errors, ids mapped like the calls', async () => {
    const { body } = await send({}, { cache: false });
    const results = items(field(items(field(body, 'messages'))[2], 'content'));
    expect(results).toEqual([
      {
        type: 'tool_result',
        tool_use_id: 'toolu_1',
        content: [
          { type: 'text', text: '3' },
          { type: 'image', source: { type: 'base64', media_type: 'image/png', data: 'aW1n' } },
        ],
      },
      { type: 'tool_result', tool_use_id: 'call_x_fc_y', content: [{ type: 'text', text: 'boom' }], is_error: true },
    ]);
  });

  it('sends a user image as a base64 image block', async () => {
    const { body } = await send(
      {
        messages: [
          {
            role: 'user',
            content: [
              { type: 'text', text: 'What is this?' },
              { type: 'image', data: 'aW1n', mimeType: 'image/jpeg' },
            ],
            timestamp: 1,
          },
        ],
      },
      { cache: false },
    );
    expect(field(items(field(body, 'messages'))[0], 'content')).toEqual([
      { type: 'text', text: 'What is this?' },
      { type: 'image', source: { type: 'base64', media_type: 'image/jpeg', data: 'aW1n' } },
    ]);
  });

  it('maps thinking levels: budgets for manual-thinking models, adaptive effort for newer ones', async () => {
    const budget = await send({ thinking: 'medium', maxTokens: 4000 });
    expect(field(budget.body, 'thinking')).toEqual({ type: 'enabled', budget_tokens: 10_240 });
    expect(field(budget.body, 'max_tokens')).toBeGreaterThan(10_240);
    server.reset();
    const adaptive = await send({ model: 'claude-opus-4-6', thinking: 'minimal' });
    expect(field(adaptive.body, 'thinking')).toEqual({ type: 'adaptive', display: 'summarized' });
    expect(field(adaptive.body, 'output_config')).toEqual({ effort: 'low' });
    server.reset();
    const off = await send({ model: 'claude-opus-4-6', thinking: 'off' });
    expect(field(off.body, 'thinking')).toEqual({ type: 'disabled' });
    server.reset();
    const alwaysOn = await send({ model: 'claude-opus-5-5', thinking: 'off' });
    expect(field(alwaysOn.body, 'thinking')).toBeUndefined();
    server.reset();
    const none = await send({});
    expect(field(none.body, 'thinking')).toBeUndefined();
    expect(field(none.body, 'max_tokens')).toBe(32_000);
  });

  it('maps xhigh to the xhigh effort where the model has it, high where it lacks it, a 64K budget on manual thinking', async () => {
    const xhigh = await send({ model: 'claude-opus-4-8', thinking: 'xhigh' });
    expect(field(xhigh.body, 'output_config')).toEqual({ effort: 'xhigh' });
    server.reset();
    const lacking = await send({ model: 'claude-sonnet-4-6', thinking: 'xhigh' });
    expect(field(lacking.body, 'output_config')).toEqual({ effort: 'high' });
    server.reset();
    // Sonnet 4.5 writes at most 64K: the budget stays below max_tokens within that limit.
    const budget = await send({ thinking: 'xhigh' });
    expect(field(budget.body, 'max_tokens')).toBe(64_000);
    expect(field(budget.body, 'thinking')).toEqual({ type: 'enabled', budget_tokens: 62_976 });
    server.reset();
    const sampled = await send({ temperature: 0.3, topP: 0.9 });
    expect(sampled.body).not.toHaveProperty('temperature');
    expect(sampled.body).not.toHaveProperty('top_p');
  });

  it('classifies an overloaded_error event inside the stream as a retryable api failure', async () => {
    server.enqueue({
      events: [...wire.partialText(['Hi']), { event: 'error', data: { type: 'error', error: { type: 'overloaded_error', message: 'Overloaded' } } }],
    });
    const events = await call(replayProvider('anthropic', server.url), {
      model: 'claude-sonnet-4-5',
      messages: [{ role: 'user', content: 'x', timestamp: 1 }],
      tools: [],
    });
    expect(failureOf(events)).toMatchObject({ kind: 'api', retryable: true, message: expect.stringContaining('Overloaded') });
  });

  it('sends the key and extra headers, and keeps retries off (one request for a 500)', async () => {
    server.enqueue({ status: 500, body: { type: 'error', error: { type: 'api_error', message: 'boom' } } });
    await call(replayProvider('anthropic', server.url, { headers: { 'x-team': 'blue' } }), {
      model: 'claude-sonnet-4-5',
      messages: [{ role: 'user', content: 'x', timestamp: 1 }],
      tools: [],
    });
    expect(server.requests).toHaveLength(1);
    const headers = server.requests[0]?.headers;
    expect(headers?.['x-team']).toBe('blue');
    expect(`${headers?.['x-api-key'] ?? ''}${headers?.['authorization'] ?? ''}`).toContain('sk-test-');
  });
});
