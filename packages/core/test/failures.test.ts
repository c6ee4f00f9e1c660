/**
 * Failures (behaviour 10): retryable provider errors are retried with capped, jittered exponential
 * back-off on the injected clock, honouring retry-after, and an abort during the back-off ends the
 * run without another request; a context overflow compacts the context once per turn and retries
 * (the history itself stays whole);
 * tool calls cut off by a `length` stop get INCOMPLETE_TOOL_CALL results without running; a
 * non-retried error ends in `error`; a reply that failed mid-stream is closed as `failed` so a
 * consumer can drop its partial text. `exponentialBackoff` is tested directly.
 */
import { describe, expect, it } from 'vitest';
import { Agent, exponentialBackoff, INCOMPLETE_TOOL_CALL, type AgentOptions, type Message, type ProviderFailure } from '../src/index.js';
import { createScriptedProvider, flushPromises, SimulatedClock, type ScriptStep } from '../src/testing.js';
import { ALLOW, echoTool, nextEvent, record } from './support.js';
import { capturingProvider, countingTool, eventsOf, resultsOf } from './support-extra.js';

const net: ProviderFailure = { kind: 'network', message: 'reset', retryable: true };

function setup(script: ScriptStep[], extra: Partial<AgentOptions> = {}) {
  const clock = new SimulatedClock();
  const provider = createScriptedProvider(script, { chunkSize: 4 });
  const retry = exponentialBackoff({ baseDelayMs: 1000, maxDelayMs: 10_000, random: () => 0.5 });
  const agent = new Agent({ provider, model: 'test', permissions: ALLOW, clock, retry, tools: [echoTool()], ...extra });
  return { clock, provider, agent, events: record(agent) };
}

describe('exponentialBackoff', () => {
  it('doubles per attempt under the cap, and retry-after wins when longer but not past the cap', () => {
    const backoff = exponentialBackoff({ baseDelayMs: 1000, maxDelayMs: 5000, jitter: 0, maxRetries: 10 });
    expect([1, 2, 3, 4, 5].map((n) => backoff.delayFor(net, n))).toEqual([1000, 2000, 4000, 5000, 5000]);
    expect(backoff.delayFor({ ...net, retryAfterMs: 3000 }, 1)).toBe(3000);
    expect(backoff.delayFor({ ...net, retryAfterMs: 500 }, 2)).toBe(2000);
    expect(backoff.delayFor({ ...net, retryAfterMs: 60_000 }, 1)).toBe(5000);
  });

  it('keeps jitter within ±jitter of the exponential delay', () => {
    const at = (r: number, jitter?: number) =>
      exponentialBackoff({ baseDelayMs: 1000, random: () => r, ...(jitter === undefined ? {} : { jitter }) }).delayFor(net, 2);
    expect(at(0)).toBe(1600);
    expect(at(0.5)).toBe(2000);
    expect(at(0.999999)).toBe(2400);
    expect(at(0, 0.5)).toBe(1000);
    for (let r = 0; r < 1; r += 0.05) expect(at(r)).toSatisfy((d: number) => d >= 1600 && d <= 2400);
  });

  it('gives up after maxRetries and on non-retryable failures', () => {
    const backoff = exponentialBackoff({ maxRetries: 2 });
    expect(backoff.delayFor(net, 2)).toBeTypeOf('number');
    expect(backoff.delayFor(net, 3)).toBeUndefined();
    expect(backoff.delayFor({ kind: 'auth', message: 'bad key', retryable: false }, 1)).toBeUndefined();
    expect(exponentialBackoff().delayFor(net, 6)).toBeUndefined();
  });
});

describe('retries', () => {
  it('waits on the clock, honours retry-after, doubles the next delay, then finishes', async () => {
    const { clock, provider, agent, events } = setup([{ error: { kind: 'rate_limited', retryAfterMs: 3000 } }, { error: { kind: 'network' } }, { text: 'ok' }]);
    const firstRetry = nextEvent(agent, 'retry');
    const done = agent.prompt('go');
    expect(await firstRetry).toMatchObject({ attempt: 1, delayMs: 3000, error: { kind: 'rate_limited' } });
    await flushPromises();
    expect(agent.stateValue).toEqual({ thinking: 'retrying' });
    expect(provider.requests).toHaveLength(1);
    await clock.advance(2999);
    expect(provider.requests).toHaveLength(1);
    await clock.advance(1);
    expect(provider.requests).toHaveLength(2);
    expect(eventsOf(events, 'retry').map((e) => [e.attempt, e.delayMs])).toEqual([
      [1, 3000],
      [2, 2000],
    ]);
    await clock.advance(1999);
    expect(provider.requests).toHaveLength(2);
    await clock.advance(1);
    const result = await done;
    expect(result.stopReason).toBe('stop');
    expect(result.text).toBe('ok');
    expect(result.turns).toBe(1);
    expect(provider.requests).toHaveLength(3);
  });

  it('gives up after maxRetries and ends in error', async () => {
    const { clock, provider, agent } = setup(
      [{ error: { kind: 'network' } }, { error: { kind: 'api' } }, { error: { kind: 'network', message: 'still down' } }, { text: 'never' }],
      {
        retry: exponentialBackoff({ maxRetries: 2, random: () => 0.5 }),
      },
    );
    const done = agent.prompt('go');
    await clock.advance(10_000);
    const result = await done;
    expect(result.stopReason).toBe('error');
    expect(result.error?.message).toBe('still down');
    expect(provider.requests).toHaveLength(3);
  });

  it('stops retrying when aborted during the back-off', async () => {
    const { clock, provider, agent } = setup([{ error: { kind: 'network' } }, { text: 'never' }]);
    const retried = nextEvent(agent, 'retry');
    const done = agent.prompt('go');
    await retried;
    await clock.advance(500);
    agent.abort();
    const result = await done;
    expect(result.stopReason).toBe('aborted');
    expect(agent.state).toBe('aborted');
    await clock.advance(60_000);
    expect(provider.requests).toHaveLength(1);
    expect(clock.pending).toBe(0);
  });
});

describe('context overflow', () => {
  const toolTurn = (text: string): ScriptStep => ({ toolCalls: [{ name: 'echo', arguments: { text } }] });

  it('compacts once and retries with the compacted history', async () => {
    const inputs: Message[][] = [];
    const compaction = {
      compact(messages: readonly Message[]): Message[] {
        inputs.push([...messages]);
        return [messages[0] as Message, ...messages.slice(-2)];
      },
    };
    const provider = capturingProvider(createScriptedProvider([toolTurn('a'), toolTurn('b'), { error: { kind: 'overflow' } }, { text: 'fits now' }]));
    const { agent, events } = setup([], { compaction, provider });
    const result = await agent.prompt('go');
    expect(result.stopReason).toBe('stop');
    expect(inputs).toHaveLength(1);
    expect(inputs[0]?.map((m) => m.role)).toEqual(['user', 'assistant', 'toolResult', 'assistant', 'toolResult']);
    expect(eventsOf(events, 'compaction').map(({ removedMessages, keptMessages }) => ({ removedMessages, keptMessages }))).toEqual([
      { removedMessages: 2, keptMessages: 3 },
    ]);
    expect(provider.seen.map((messages) => messages.length)).toEqual([1, 3, 5, 3]);
    expect(provider.seen[3]).toEqual([inputs[0]?.[0], inputs[0]?.[3], inputs[0]?.[4]]);
    expect(agent.messages.map((m) => m.role)).toEqual(['user', 'assistant', 'toolResult', 'assistant', 'toolResult', 'assistant']);
    expect(agent.contextMessages.map((m) => m.role)).toEqual(['user', 'assistant', 'toolResult', 'assistant']);
  });

  it('keeps the whole history, and result.messages to the run, when compaction leaves earlier runs out of the context', async () => {
    const compaction = { compact: (messages: readonly Message[]) => messages.slice(2) };
    const { agent } = setup([{ text: 'first run' }, toolTurn('x'), { error: { kind: 'overflow' } }, { text: 'second run' }], { compaction });
    await agent.prompt('one');
    const result = await agent.prompt('two');
    expect(result.stopReason).toBe('stop');
    expect(result.messages.map((m) => m.role)).toEqual(['user', 'assistant', 'toolResult', 'assistant']);
    expect(result.messages[0]).toMatchObject({ role: 'user', content: 'two' });
    expect(agent.messages.map((m) => m.role)).toEqual(['user', 'assistant', ...result.messages.map((m) => m.role)]);
    expect(agent.messages.slice(2)).toEqual(result.messages);
    expect(agent.contextMessages).toEqual(result.messages);
  });

  it('ends in error when the compacted history overflows again in the same turn', async () => {
    const compacted: number[] = [];
    const compaction = { compact: (messages: readonly Message[]) => (compacted.push(messages.length), [...messages]) };
    const { provider, agent } = setup([{ error: { kind: 'overflow' } }, { error: { kind: 'overflow' } }, { text: 'never' }], { compaction });
    const result = await agent.prompt('go');
    expect(agent.state).toBe('error');
    expect(result.stopReason).toBe('error');
    expect(result.error?.code).toBe('provider_error');
    expect(compacted).toEqual([1]);
    expect(provider.requests).toHaveLength(2);
  });
});

describe('other failures', () => {
  it('gives cut-off tool calls an INCOMPLETE_TOOL_CALL result without running them, then goes on', async () => {
    const counted = countingTool('count');
    const { provider, agent } = setup([{ toolCalls: [{ name: 'count' }, { name: 'count' }], stopReason: 'length' }, { text: 'retried properly' }], {
      tools: [counted.tool],
    });
    const result = await agent.prompt('go');
    expect(counted.calls).toEqual([]);
    expect(resultsOf(result.messages)).toEqual([
      ['call_1_1', INCOMPLETE_TOOL_CALL, true],
      ['call_1_2', INCOMPLETE_TOOL_CALL, true],
    ]);
    expect(result.stopReason).toBe('stop');
    expect(result.turns).toBe(2);
    expect(resultsOf(provider.requests[1]?.messages ?? [])).toHaveLength(2);
  });

  it('ends in error on a provider error that is not retried', async () => {
    const { provider, agent } = setup([{ error: { kind: 'auth', message: 'bad key' } }, { text: 'never' }]);
    const result = await agent.prompt('go');
    expect(agent.state).toBe('error');
    expect(result.stopReason).toBe('error');
    expect(result.error?.message).toBe('bad key');
    expect(provider.requests).toHaveLength(1);
  });

  it('closes a reply that failed mid-stream so a consumer shows the final text once', async () => {
    const { clock, agent, events } = setup([{ error: { kind: 'network' }, partialText: 'Hello wor' }, { text: 'Hello world' }]);
    let shown = '';
    let current = '';
    agent.events$.subscribe((e) => {
      if (e.type === 'message_start' && e.role === 'assistant') current = '';
      if (e.type === 'message_update' && e.delta.type === 'text_delta') current += e.delta.delta;
      if (e.type === 'message_end' && e.role === 'assistant') {
        if (e.failed === undefined) shown += current;
        current = '';
      }
    });
    const retried = nextEvent(agent, 'retry');
    const done = agent.prompt('greet');
    await retried;
    await clock.advance(1000);
    const result = await done;
    expect(result.text).toBe('Hello world');
    expect(shown).toBe('Hello world');
    const flow = events
      .filter((e) => e.type === 'retry' || e.type === 'message_update' || ((e.type === 'message_start' || e.type === 'message_end') && e.role === 'assistant'))
      .map((e) =>
        e.type === 'message_start' ? `start:${e.attempt ?? 0}` : e.type === 'message_end' ? (e.failed === undefined ? 'end' : 'end:failed') : e.type,
      )
      .filter((t, i, all) => t !== 'message_update' || all[i - 1] !== 'message_update');
    expect(flow).toEqual(['start:0', 'message_update', 'end:failed', 'retry', 'start:1', 'message_update', 'end']);
  });
});
