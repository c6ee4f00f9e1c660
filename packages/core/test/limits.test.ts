/**
 * Safe limits (issue 14 §1): a run that sets no limits still stops after 50 model calls (the
 * flow spec's hard cap), `maxTurns: Infinity` lifts the cap only when said, and a run stopped by a
 * limit ends with an assistant notice saying which limit stopped it — the spec's "Maximum
 * conversation iterations reached" for turns — as its text, kept in the history and the events
 * (streamed like a reply) but not sent to the model, so `continue()` goes on from the same place.
 */
import { describe, expect, it } from 'vitest';
import { DEFAULT_MAX_TURNS, limitNotice, resolveLimits, textOf, type Message } from '../src/index.js';
import { createScriptedProvider } from '../src/testing.js';
import { echoTool, record, scriptedAgent } from './support.js';
import { eventsOf } from './support-extra.js';

const loop = (n: number) => Array.from({ length: n }, () => ({ toolCalls: [{ name: 'echo', arguments: { text: 'x' } }] }));

describe('the default turn cap', () => {
  it('stops a run with no limits after 50 model calls and says so', async () => {
    expect(DEFAULT_MAX_TURNS).toBe(50);
    const agent = scriptedAgent(loop(60), { tools: [echoTool()] });
    const result = await agent.prompt('go');
    expect(result.stopReason).toBe('limit');
    expect(result.limit).toEqual({ kind: 'maxTurns', limit: 50, actual: 50 });
    expect(result.turns).toBe(50);
    expect(result.text).toBe('Maximum conversation iterations reached (50 model calls).');
  });

  it('is lifted only by an explicit Infinity', async () => {
    const agent = scriptedAgent([...loop(60), { text: 'finally' }], { tools: [echoTool()], limits: { maxTurns: Infinity } });
    const result = await agent.prompt('go');
    expect(result.stopReason).toBe('stop');
    expect(result.turns).toBe(61);
    expect(result.text).toBe('finally');
    // Other limits given alone keep the default turn cap.
    expect(resolveLimits({ maxTokens: 10 })).toEqual({ maxTurns: 50, maxTokens: 10 });
    expect(resolveLimits({ maxTurns: Infinity, maxCost: Infinity })).toEqual({});
  });

  it('is kept as plain JSON in snapshots', () => {
    const agent = scriptedAgent([], { limits: { maxTurns: Infinity, maxWallTimeMs: 1000 } });
    expect(JSON.parse(JSON.stringify(agent.snapshot())).context.settings.limits).toEqual({ maxWallTimeMs: 1000 });
  });
});

describe('the notice of a limit', () => {
  it('names each limit', () => {
    expect(limitNotice({ kind: 'maxTurns', limit: 1, actual: 1 })).toBe('Maximum conversation iterations reached (1 model call).');
    expect(limitNotice({ kind: 'maxTokens', limit: 10_000, actual: 10_412 })).toBe('Maximum tokens reached (10,412 of 10,000 tokens used).');
    expect(limitNotice({ kind: 'maxWallTimeMs', limit: 60_000, actual: 60_000 })).toBe('Maximum run time reached (60 s).');
    expect(limitNotice({ kind: 'maxCost', limit: 1, actual: 1.03125 })).toBe('Maximum cost reached ($1.0313 of $1 spent).');
  });

  it('ends the history and the events, streamed like a reply, and is not sent to the model', async () => {
    const provider = createScriptedProvider([...loop(2), { text: 'picked up' }], { chunkSize: 4 });
    const agent = scriptedAgent([], { provider, tools: [echoTool()], limits: { maxTurns: 2 } });
    const events = record(agent);
    const result = await agent.prompt('go');
    const notice = 'Maximum conversation iterations reached (2 model calls).';
    expect(result.messages.at(-1)).toMatchObject({ role: 'assistant', stopReason: 'aborted', model: 'troupe', content: [{ type: 'text', text: notice }] });
    const ends = eventsOf(events, 'message_end').filter((e) => e.role === 'assistant');
    expect(ends.at(-1)?.message).toEqual(result.messages.at(-1));
    const deltas = eventsOf(events, 'message_update').map((e) => (e.delta.type === 'text_delta' ? e.delta.delta : ''));
    expect(deltas.join('')).toBe(notice);
    // It comes after the last turn ended, before the run's end.
    const order = events.map((e) => e.type);
    expect(order.lastIndexOf('turn_end')).toBeLessThan(order.lastIndexOf('message_end'));
    expect(order.at(-1)).toBe('agent_end');

    // continue() goes on from the last tool results; the model never sees the notice.
    const again = await agent.continue();
    expect(again.text).toBe('picked up');
    const sent = provider.requests.at(-1)?.messages as Message[];
    expect(sent.map((m) => m.role)).toEqual(['user', 'assistant', 'toolResult', 'assistant', 'toolResult']);
    expect(sent.some((m) => textOf(m) === notice)).toBe(false);
  });

  it('follows a text reply stopped by a limit while a follow-up waited', async () => {
    const agent = scriptedAgent([{ text: 'first' }, { text: 'second' }], { limits: { maxTurns: 1 } });
    agent.followUp('and then?');
    const result = await agent.prompt('go');
    expect(result.stopReason).toBe('limit');
    expect(result.messages.map((m) => [m.role, textOf(m)])).toEqual([
      ['user', 'go'],
      ['assistant', 'first'],
      ['assistant', 'Maximum conversation iterations reached (1 model call).'],
    ]);
  });
});
