/**
 * Proves what the Responses provider sends and keeps beyond the shared contract: stateless
 * requests (`store: false`) that ask reasoning models for encrypted reasoning and a summary with
 * the mapped effort; reasoning items and function-call item ids sent back on the next turn to the
 * same model only; tool results with images inline; `response.incomplete` (max output tokens) as
 * a `length` stop; `response.failed` and `error` events classified; and retries off.
 */
import type { AssistantMessage, LlmMessage, ProviderRequest } from '@troupe/core';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { call, doneOf, failureOf } from '../support/replay-call.js';
import { ReplayServer, type SseFrame } from '../support/replay-server.js';
import { replayProvider } from '../support/subjects.js';
import { openAIResponsesWire } from '../wire/openai-responses-wire.js';
import { field, items } from '../wire/vendor-wire.js';

const wire = openAIResponsesWire();
const USAGE = { input: 50, cached: 0, output: 5 };

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

const REASONING = JSON.stringify({ type: 'reasoning', id: 'rs_9', encrypted_content: 'ENC' });
const HISTORY: LlmMessage[] = [
  {
    role: 'user',
    content: [
      { type: 'text', text: 'Look:' },
      { type: 'image', data: 'aW1n', mimeType: 'image/png' },
    ],
    timestamp: 1,
  },
  assistant('openai:gpt-5.4-mini', [
    { type: 'thinking', thinking: 'Need a tool.', signature: REASONING },
    { type: 'toolCall', id: 'call_9|fc_9', name: 'shot', arguments: { x: 1 } },
  ]),
  {
    role: 'toolResult',
    toolCallId: 'call_9|fc_9',
    toolName: 'shot',
    content: [
      { type: 'text', text: 'here' },
      { type: 'image', data: 'cG5n', mimeType: 'image/png' },
    ],
    isError: false,
    timestamp: 3,
  },
];

describe('OpenAI Responses requests', () => {
  let server: ReplayServer;
  beforeAll(async () => {
    server = await ReplayServer.start();
  });
  afterAll(() => server.close());
  beforeEach(() => server.reset());

  async function send(
    request: Partial<ProviderRequest>,
    frames: SseFrame[] = wire.text(['ok'], USAGE),
  ): Promise<{ body: unknown; events: Awaited<ReturnType<typeof call>> }> {
    server.enqueue({ events: frames });
    const events = await call(replayProvider('openai', `${server.url}/v1`), { model: 'gpt-5.4-mini', messages: HISTORY, tools: [], ...request });
    return { body: server.requests[0]?.body, events };
  }

  it('sends the reasoning item and the function-call item id back to the same model', async () => {
    const { body } = await send({ thinking: 'high' });
    expect(server.requests[0]?.url).toBe('/v1/responses');
    expect(body).toMatchObject({
      model: 'gpt-5.4-mini',
      stream: true,
      store: false,
      include: ['reasoning.encrypted_content'],
      reasoning: { effort: 'high', summary: 'auto' },
    });
    expect(items(field(body, 'input'))).toEqual([
      {
        role: 'user',
        content: [
          { type: 'input_text', text: 'Look:' },
          { type: 'input_image', image_url: 'data:image/png;base64,aW1n', detail: 'auto' },
        ],
      },
      { type: 'reasoning', id: 'rs_9', summary: [{ type: 'summary_text', text: 'Need a tool.' }], encrypted_content: 'ENC' },
      { type: 'function_call', call_id: 'call_9', name: 'shot', arguments: '{"x":1}', id: 'fc_9' },
      {
        type: 'function_call_output',
        call_id: 'call_9',
        output: [
          { type: 'input_text', text: 'here' },
          { type: 'input_image', image_url: 'data:image/png;base64,cG5n', detail: 'auto' },
        ],
      },
    ]);
  });

  it('leaves reasoning and item ids out for another model', async () => {
    const { body } = await send({ model: 'gpt-5.4' });
    const kinds = items(field(body, 'input')).map((i) => field(i, 'type') ?? field(i, 'role'));
    expect(kinds).toEqual(['user', 'function_call', 'function_call_output']);
    expect(items(field(body, 'input'))[1]).not.toHaveProperty('id');
  });

  it('maps thinking off to effort none and leaves reasoning out of non-reasoning models', async () => {
    const off = await send({ thinking: 'off' });
    expect(field(off.body, 'reasoning')).toEqual({ effort: 'none', summary: null });
    server.reset();
    const plain = await send({ model: 'gpt-4.1-mini', thinking: 'high', temperature: 0.2, maxTokens: 100 });
    expect(field(plain.body, 'reasoning')).toBeUndefined();
    expect(field(plain.body, 'include')).toBeUndefined();
    expect(plain.body).toMatchObject({ temperature: 0.2, max_output_tokens: 100 });
  });

  it('sends xhigh as is to models that have it; top_p only to models that do not reason', async () => {
    const xhigh = await send({ thinking: 'xhigh', topP: 0.7 });
    expect(field(xhigh.body, 'reasoning')).toEqual({ effort: 'xhigh', summary: 'auto' });
    expect(xhigh.body).not.toHaveProperty('top_p');
    server.reset();
    const plain = await send({ model: 'gpt-4.1-mini', topP: 0.7 });
    expect(plain.body).toMatchObject({ top_p: 0.7 });
  });

  it('keeps a reasoning item without summary as a redacted thinking part', async () => {
    const frames: SseFrame[] = wire.text(['ok'], USAGE);
    frames.splice(
      2,
      0,
      {
        event: 'response.output_item.added',
        data: { type: 'response.output_item.added', sequence_number: 90, output_index: 0, item: { id: 'rs_2', type: 'reasoning', summary: [] } },
      },
      {
        event: 'response.output_item.done',
        data: {
          type: 'response.output_item.done',
          sequence_number: 91,
          output_index: 0,
          item: { id: 'rs_2', type: 'reasoning', summary: [], encrypted_content: 'E2' },
        },
      },
    );
    const { events } = await send({}, frames);
    expect(doneOf(events).content[0]).toEqual({
      type: 'thinking',
      thinking: '',
      signature: JSON.stringify({ type: 'reasoning', id: 'rs_2', encrypted_content: 'E2' }),
      redacted: true,
    });
  });

  it('stops with length when the response is incomplete for max_output_tokens', async () => {
    const frames = wire.text(['Trunc'], USAGE);
    const completed = frames.at(-1);
    if (completed === undefined) throw new Error('no frames');
    const data = completed.data as { response: Record<string, unknown> };
    frames[frames.length - 1] = {
      event: 'response.incomplete',
      data: { ...data, type: 'response.incomplete', response: { ...data.response, status: 'incomplete', incomplete_details: { reason: 'max_output_tokens' } } },
    };
    const { events } = await send({}, frames);
    expect(doneOf(events).stopReason).toBe('length');
  });

  it('ends a reply whose output is a refusal with stop reason refusal', async () => {
    const frames = wire.text(['ok'], USAGE).filter((f) => (f.data as { type: string }).type !== 'response.output_text.delta');
    const at = frames.findIndex((f) => (f.data as { type: string }).type === 'response.content_part.added');
    frames.splice(at + 1, 0, {
      event: 'response.refusal.delta',
      data: { type: 'response.refusal.delta', sequence_number: 80, item_id: 'msg_1', output_index: 0, content_index: 0, delta: 'No.' },
    });
    const { events } = await send({}, frames);
    expect(doneOf(events)).toMatchObject({ stopReason: 'refusal', errorMessage: 'the model refused', content: [{ type: 'text', text: 'No.' }] });
  });

  it('classifies response.failed and error events', async () => {
    const failed: SseFrame = {
      event: 'response.failed',
      data: {
        type: 'response.failed',
        sequence_number: 5,
        response: { id: 'resp_1', status: 'failed', error: { code: 'rate_limit_exceeded', message: 'Slow down.' }, output: [] },
      },
    };
    const a = await send({}, [...wire.partialText(['x']), failed]);
    expect(failureOf(a.events)).toMatchObject({ kind: 'rate_limited', retryable: true, message: 'Slow down.' });
    server.reset();
    const error: SseFrame = { event: 'error', data: { type: 'error', sequence_number: 5, code: 'server_error', message: 'Oops.', param: null } };
    const b = await send({}, [...wire.partialText(['x']), error]);
    expect(failureOf(b.events)).toMatchObject({ kind: 'api', retryable: true, message: 'Oops.' });
  });

  it('does not retry on its own', async () => {
    server.enqueue({ status: 503, body: { error: { message: 'busy', type: 'server_error' } } });
    await call(replayProvider('openai', `${server.url}/v1`), { model: 'gpt-5.4-mini', messages: HISTORY, tools: [] });
    expect(server.requests).toHaveLength(1);
  });
});
