/**
 * The scripted provider (the only fake model of the project): replays its script one step per
 * call, streams text, thinking and tool-call arguments in small deltas that add up to the final
 * message, reports scripted failures as classified errors, honours abort (also during a delay),
 * fails clearly past the end of the script, and can start mid-script for a restored agent.
 */
import { describe, expect, it } from 'vitest';
import type { ProviderEvent, ProviderRequest } from '../../src/index.js';
import { createScriptedProvider, SimulatedClock } from '../../src/testing.js';

const request: ProviderRequest = { model: 'm', messages: [{ role: 'user', content: 'hi', timestamp: 0 }], tools: [] };

async function drain(stream: AsyncIterable<ProviderEvent>): Promise<ProviderEvent[]> {
  const events: ProviderEvent[] = [];
  for await (const event of stream) events.push(event);
  return events;
}

describe('scripted provider', () => {
  it('streams deltas that add up to the final message', async () => {
    const provider = createScriptedProvider(
      [{ thinking: 'hmm, let me see', text: 'Hello, world!', toolCalls: [{ name: 'echo', arguments: { text: 'a long argument' } }] }],
      { chunkSize: 5 },
    );
    const events = await drain(provider.stream(request, { signal: new AbortController().signal }));
    const join = (type: string) => events.flatMap((e) => (e.type === type && 'delta' in e ? [e.delta] : [])).join('');
    expect(events[0]).toEqual({ type: 'start' });
    expect(join('thinking_delta')).toBe('hmm, let me see');
    expect(join('text_delta')).toBe('Hello, world!');
    expect(JSON.parse(join('toolcall_delta'))).toEqual({ text: 'a long argument' });
    const done = events.at(-1);
    expect(done?.type).toBe('done');
    if (done?.type !== 'done') return;
    expect(done.message.stopReason).toBe('toolUse');
    expect(done.message.content).toEqual([
      { type: 'thinking', thinking: 'hmm, let me see' },
      { type: 'text', text: 'Hello, world!' },
      { type: 'toolCall', id: 'call_1_1', name: 'echo', arguments: { text: 'a long argument' } },
    ]);
  });

  it('reports scripted failures as classified errors, after any partial text', async () => {
    const provider = createScriptedProvider([{ error: { kind: 'rate_limited', retryAfterMs: 2000, status: 429 }, partialText: 'Hel' }]);
    const events = await drain(provider.stream(request, { signal: new AbortController().signal }));
    expect(events.at(-2)).toEqual({ type: 'text_end', index: 0 });
    expect(events.at(-1)).toEqual({
      type: 'error',
      error: { kind: 'rate_limited', message: 'scripted rate_limited error', retryable: true, retryAfterMs: 2000, status: 429 },
    });
  });

  it('honours abort during a delay', async () => {
    const clock = new SimulatedClock();
    const provider = createScriptedProvider([{ text: 'late', delayMs: 1000 }], { clock });
    const controller = new AbortController();
    const pending = drain(provider.stream(request, { signal: controller.signal }));
    await clock.advance(500);
    controller.abort();
    expect(await pending).toEqual([{ type: 'error', error: { kind: 'aborted', message: 'request aborted', retryable: false } }]);
  });

  it('fails clearly past the end of the script and can start mid-script', async () => {
    const script = [{ text: 'one' }, { text: 'two' }];
    const provider = createScriptedProvider(script, { startAt: 1 });
    const second = await drain(provider.stream(request, { signal: new AbortController().signal }));
    expect(second.at(-1)).toMatchObject({ type: 'done', message: { content: [{ type: 'text', text: 'two' }] } });
    expect(provider.position).toBe(2);
    const past = await drain(provider.stream(request, { signal: new AbortController().signal }));
    expect(past).toEqual([{ type: 'error', error: { kind: 'api', message: 'scripted provider: the script has no step 3 (it has 2)', retryable: false } }]);
  });

  it('reads back the latest tool result with {{lastToolResult}}', async () => {
    const provider = createScriptedProvider([{ text: 'It is {{lastToolResult}}.' }]);
    const withResult: ProviderRequest = {
      ...request,
      messages: [
        ...request.messages,
        { role: 'toolResult', toolCallId: 'c', toolName: 'clock', content: [{ type: 'text', text: 'noon' }], isError: false, timestamp: 0 },
      ],
    };
    const events = await drain(provider.stream(withResult, { signal: new AbortController().signal }));
    expect(events.at(-1)).toMatchObject({ type: 'done', message: { content: [{ type: 'text', text: 'It is noon.' }] } });
  });

  it('prices usage from its pricing option', async () => {
    const provider = createScriptedProvider([{ text: 'x', usage: { input: 1_000_000, output: 500_000 } }], { pricing: { input: 2, output: 8 } });
    const events = await drain(provider.stream(request, { signal: new AbortController().signal }));
    const done = events.at(-1);
    expect(done?.type === 'done' && done.message.usage.cost).toEqual({ input: 2, output: 4, cacheRead: 0, cacheWrite: 0, total: 6 });
  });
});
