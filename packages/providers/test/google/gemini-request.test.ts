/**
 * Proves what the Gemini provider sends and keeps beyond the shared contract: the key in the
 * `x-goog-api-key` header and never in the URL; system instruction, function declarations and
 * generation config; thinking as `thinkingLevel` (Gemini 3) or `thinkingBudget` (Gemini 2.5); thought
 * signatures sent back in the part they came with, to the same model only; made-up call ids never
 * sent; tool results as `functionResponse` parts with their images; `RetryInfo` in the body as the
 * retry delay; a bad key answered with 400 as `auth`; blocked replies ending with an error stop;
 * CRLF-framed events.
 */
import type { AssistantMessage, LlmMessage, ProviderRequest } from '@troupe/core';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { call, doneOf, failureOf } from '../support/replay-call.js';
import { ReplayServer, type SseFrame } from '../support/replay-server.js';
import { replayProvider, TEST_KEY } from '../support/subjects.js';
import { geminiWire } from '../wire/gemini-wire.js';
import { field, items } from '../wire/vendor-wire.js';

const wire = geminiWire();
const USAGE = { input: 40, cached: 0, output: 4 };

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
  { role: 'user', content: 'Weather in Paris and Rome?', timestamp: 1 },
  assistant('google:gemini-3.8-flash', [
    { type: 'thinking', thinking: 'Two lookups.', signature: 'thought-sig' },
    { type: 'toolCall', id: 'gemini_abc_1', name: 'weather', arguments: { city: 'Paris' } },
    { type: 'thinking', thinking: '', signature: 'call-sig', redacted: true },
    { type: 'toolCall', id: 'fc-rome', name: 'weather', arguments: { city: 'Rome' } },
  ]),
  {
    role: 'toolResult',
    toolCallId: 'gemini_abc_1',
    toolName: 'weather',
    content: [
      { type: 'text', text: 'sunny' },
      { type: 'image', data: 'aW1n', mimeType: 'image/png' },
    ],
    isError: false,
    timestamp: 3,
  },
  { role: 'toolResult', toolCallId: 'fc-rome', toolName: 'weather', content: [{ type: 'text', text: 'no data' }], isError: true, timestamp: 4 },
];

describe('Gemini requests', () => {
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
    const events = await call(replayProvider('google', server.url), {
      model: 'gemini-3.8-flash',
      systemPrompt: 'Be brief.',
      messages: HISTORY,
      tools: [{ name: 'weather', description: 'Weather.', parameters: { type: 'object', properties: { city: { type: 'string' } } } }],
      ...request,
    });
    return { body: server.requests[0]?.body, events };
  }

  it('puts the key in a header, never in the URL', async () => {
    await send({});
    const request = server.requests[0];
    expect(request?.url).toBe('/models/gemini-3.8-flash:streamGenerateContent?alt=sse');
    expect(request?.headers['x-goog-api-key']).toBe(TEST_KEY);
    expect(request?.url).not.toContain(TEST_KEY);
  });

  it('sends system instruction, function declarations and thought signatures in place', async () => {
    const { body } = await send({ maxTokens: 500 });
    expect(field(body, 'systemInstruction')).toEqual({ parts: [{ text: 'Be brief.' }] });
    expect(field(body, 'tools', 0, 'functionDeclarations', 0)).toEqual({
      name: 'weather',
      description: 'Weather.',
      parametersJsonSchema: { type: 'object', properties: { city: { type: 'string' } } },
    });
    expect(field(body, 'generationConfig')).toEqual({ maxOutputTokens: 500 });
    const contents = items(field(body, 'contents'));
    expect(contents[1]).toEqual({
      role: 'model',
      parts: [
        { text: 'Two lookups.', thought: true, thoughtSignature: 'thought-sig' },
        { functionCall: { name: 'weather', args: { city: 'Paris' } }, thoughtSignature: 'call-sig' },
        { functionCall: { name: 'weather', args: { city: 'Rome' }, id: 'fc-rome' } },
      ],
    });
    expect(contents[2]).toEqual({
      role: 'user',
      parts: [
        { functionResponse: { name: 'weather', response: { output: 'sunny' } } },
        { inlineData: { mimeType: 'image/png', data: 'aW1n' } },
        { functionResponse: { name: 'weather', response: { error: 'no data' }, id: 'fc-rome' } },
      ],
    });
  });

  it('leaves thoughts and signatures out for another model', async () => {
    const { body } = await send({ model: 'gemini-3.6-flash' });
    expect(JSON.stringify(body)).not.toContain('thoughtSignature');
    expect(JSON.stringify(body)).not.toContain('Two lookups.');
  });

  it('maps thinking to thinkingLevel on Gemini 3 and thinkingBudget on Gemini 2.5', async () => {
    const level = await send({ thinking: 'low' });
    expect(field(level.body, 'generationConfig', 'thinkingConfig')).toEqual({ thinkingLevel: 'low', includeThoughts: true });
    server.reset();
    const budget = await send({ model: 'gemini-2.5-flash', thinking: 'off' });
    expect(field(budget.body, 'generationConfig', 'thinkingConfig')).toEqual({ thinkingBudget: 0, includeThoughts: false });
    server.reset();
    const pro = await send({ model: 'gemini-2.5-pro', thinking: 'high' });
    expect(field(pro.body, 'generationConfig', 'thinkingConfig')).toEqual({ thinkingBudget: 32_768, includeThoughts: true });
  });

  it('maps xhigh to the most each model allows: high on Gemini 3, the budget cap on Gemini 2.5; sends topP', async () => {
    const level = await send({ thinking: 'xhigh', topP: 0.8, temperature: 0.5 });
    expect(field(level.body, 'generationConfig')).toMatchObject({
      thinkingConfig: { thinkingLevel: 'high', includeThoughts: true },
      topP: 0.8,
      temperature: 0.5,
    });
    server.reset();
    const pro = await send({ model: 'gemini-2.5-pro', thinking: 'xhigh' });
    expect(field(pro.body, 'generationConfig', 'thinkingConfig')).toEqual({ thinkingBudget: 32_768, includeThoughts: true });
    server.reset();
    const flash = await send({ model: 'gemini-2.5-flash', thinking: 'xhigh' });
    expect(field(flash.body, 'generationConfig', 'thinkingConfig')).toEqual({ thinkingBudget: 24_576, includeThoughts: true });
  });

  it('keeps a function call signature right after the call, and makes up ids only when Gemini gives none', async () => {
    const frames: SseFrame[] = [
      {
        data: {
          candidates: [
            {
              content: { role: 'model', parts: [{ functionCall: { name: 'weather', args: { city: 'Oslo' } }, thoughtSignature: 'sig-oslo' }] },
              finishReason: 'STOP',
            },
          ],
        },
      },
    ];
    const message = doneOf((await send({}, frames)).events);
    const [callPart, signature] = message.content;
    expect(callPart).toMatchObject({ type: 'toolCall', name: 'weather', arguments: { city: 'Oslo' }, id: expect.stringMatching(/^gemini_/) });
    expect(signature).toEqual({ type: 'thinking', thinking: '', signature: 'sig-oslo', redacted: true });
    expect(message.stopReason).toBe('toolUse');
  });

  it('reads CRLF-framed events', async () => {
    server.enqueue({ events: wire.text(['a', 'b'], USAGE), lineEnding: '\r\n' });
    const events = await call(replayProvider('google', server.url), {
      model: 'gemini-2.5-flash',
      messages: [{ role: 'user', content: 'x', timestamp: 1 }],
      tools: [],
    });
    expect(doneOf(events).content).toEqual([{ type: 'text', text: 'ab' }]);
  });

  it('ends a reply blocked for its content with a refusal stop reason, and one stopped for no reason with an error', async () => {
    for (const reason of ['SAFETY', 'RECITATION', 'BLOCKLIST', 'PROHIBITED_CONTENT', 'SPII']) {
      server.reset();
      const frames: SseFrame[] = [{ data: { candidates: [{ content: { role: 'model', parts: [{ text: 'Part' }] }, finishReason: reason }] } }];
      const message = doneOf((await send({}, frames)).events);
      expect(message).toMatchObject({ stopReason: 'refusal', errorMessage: `Gemini stopped the reply: ${reason}`, content: [{ type: 'text', text: 'Part' }] });
    }
    server.reset();
    const other: SseFrame[] = [{ data: { candidates: [{ content: { role: 'model', parts: [] }, finishReason: 'OTHER' }] } }];
    expect(doneOf((await send({}, other)).events)).toMatchObject({ stopReason: 'error', errorMessage: 'Gemini stopped the reply: OTHER' });
  });

  it('ends a call whose prompt Gemini blocked as a refusal, not a failure', async () => {
    const frames: SseFrame[] = [
      { data: { promptFeedback: { blockReason: 'SAFETY' }, usageMetadata: { promptTokenCount: 12, totalTokenCount: 12 }, modelVersion: 'replay' } },
    ];
    const message = doneOf((await send({}, frames)).events);
    expect(message).toMatchObject({ stopReason: 'refusal', errorMessage: 'Gemini blocked the prompt: SAFETY', content: [], usage: { input: 12, output: 0 } });
  });

  it('takes the retry delay from RetryInfo when there is no header, and classifies a bad key (400) as auth', async () => {
    server.enqueue({
      status: 429,
      body: {
        error: {
          code: 429,
          message: 'Quota.',
          status: 'RESOURCE_EXHAUSTED',
          details: [{ '@type': 'type.googleapis.com/google.rpc.RetryInfo', retryDelay: '1.5s' }],
        },
      },
    });
    const request: ProviderRequest = { model: 'gemini-2.5-flash', messages: [{ role: 'user', content: 'x', timestamp: 1 }], tools: [] };
    const provider = replayProvider('google', server.url);
    expect(failureOf(await call(provider, request))).toMatchObject({ kind: 'rate_limited', retryAfterMs: 1500 });
    server.enqueue({ status: 400, body: { error: { code: 400, message: 'API key not valid. Please pass a valid API key.', status: 'INVALID_ARGUMENT' } } });
    expect(failureOf(await call(provider, request))).toMatchObject({ kind: 'auth', retryable: false });
  });
});
