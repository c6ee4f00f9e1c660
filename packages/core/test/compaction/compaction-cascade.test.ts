/**
 * Compaction in a running agent. With a context window, a request estimated over the threshold
 * (80% by default, from the last reported usage plus an estimate of what came since) is compacted
 * before it is sent, so the vendor never sees an oversized request; the cascade runs its steps in
 * order, each only when the ones before left the context over the threshold (tool results, then
 * a summary by a scripted summarizer, then dropping turns; a failed summary falls through to the
 * drop). An overflow error is still compacted and retried. The history stays whole, the
 * `compaction` event and `transformContext` hooks say what was done, and the summary's tokens
 * count in the run's usage.
 */
import { describe, expect, it } from 'vitest';
import {
  Agent,
  dropOldestTurns,
  SUMMARY_HEADER,
  summarizeOlderTurns,
  textOf,
  truncateToolResults,
  type AgentOptions,
  type CompactionInfo,
  type CompactionOptions,
  type Message,
  type Tool,
} from '../../src/index.js';
import { createScriptedProvider, SimulatedClock, type ScriptStep } from '../../src/testing.js';
import { eventsOf } from '../support-extra.js';
import { record } from '../support.js';

const lines = (n: number): string => Array.from({ length: n }, (_, i) => `line ${String(i + 1).padStart(3, '0')}`).join('\n');

const blob: Tool = {
  name: 'blob',
  description: 'Returns that many lines.',
  parameters: { type: 'object', properties: { lines: { type: 'number' } } },
  readOnly: true,
  execute: (args) => ({ content: lines(Number(args['lines'])) }),
};

const call = (n: number, text?: string): ScriptStep => ({ ...(text === undefined ? {} : { text }), toolCalls: [{ name: 'blob', arguments: { lines: n } }] });

/** An agent with a 4,000-token window (none when `window` is null). */
function setup(script: ScriptStep[], compaction: CompactionOptions, extra: Partial<AgentOptions> = {}, window: number | null = 4000) {
  const clock = new SimulatedClock();
  const provider = createScriptedProvider(script, { inputFromSize: true, clock });
  const agent = new Agent({ provider, model: 'main', clock, tools: [blob], compaction, ...(window === null ? {} : { contextWindow: window }), ...extra });
  return { agent, provider, events: record(agent) };
}

/** What each model call was sent, in tokens, as the scripted model reported it. */
const inputs = (messages: readonly Message[]): number[] => messages.flatMap((m) => (m.role === 'assistant' ? [m.usage.input] : []));

function summarizer(script: ScriptStep[]) {
  return createScriptedProvider(script, { inputFromSize: true });
}

describe('compaction in an agent', () => {
  it('compacts before the call that would cross the threshold, and stops at the first step that suffices', async () => {
    const summary = summarizer([{ text: 'never asked' }]);
    const strategies = [truncateToolResults({ budgetTokens: 100 }), summarizeOlderTurns({ summarizer: { provider: summary, model: 's' } }), dropOldestTurns()];
    const { agent, provider, events } = setup([call(300), call(300), call(300), call(300), call(300), { text: 'done' }], { strategies });
    const result = await agent.prompt('go');
    expect(result.stopReason).toBe('stop');
    const [compaction, ...more] = eventsOf(events, 'compaction');
    expect(more).toEqual([]);
    expect(compaction).toMatchObject({ reason: 'threshold', strategy: 'tool-results', strategies: ['tool-results'], removedMessages: 4, addedMessages: 4 });
    expect(compaction?.tokensBefore).toBeGreaterThan(3200);
    expect(compaction?.tokensAfter).toBeLessThan(1500);
    expect(summary.requests).toEqual([]);
    expect(Math.max(...inputs(agent.messages))).toBeLessThanOrEqual(3200);
    expect(eventsOf(events, 'error')).toEqual([]);
    // What the sixth call saw: old results shortened, the latest whole; the history keeps them all whole.
    const sent = provider.requests[5]?.messages ?? [];
    expect(sent.filter((m) => m.role === 'toolResult').map((m) => textOf(m).length)).toEqual([
      expect.any(Number),
      expect.any(Number),
      expect.any(Number),
      expect.any(Number),
      lines(300).length,
    ]);
    expect(
      sent
        .filter((m) => m.role === 'toolResult')
        .slice(0, 4)
        .every((m) => /lines truncated/.test(textOf(m))),
    ).toBe(true);
    expect(agent.messages.filter((m) => m.role === 'toolResult').map((m) => textOf(m))).toEqual(Array.from({ length: 5 }, () => lines(300)));
    expect(agent.messages).toHaveLength(12);
  });

  it('summarises the older turns when shortening tool results is not enough, and counts the summary in the usage', async () => {
    const summary = summarizer([{ text: 'Goals: go. Progress: four steps taken.', usage: { input: 900, output: 40 } }]);
    const strategies = [truncateToolResults({ budgetTokens: 100 }), summarizeOlderTurns({ summarizer: { provider: summary, model: 's' } }), dropOldestTurns()];
    const long = 'y'.repeat(3000);
    const { agent, provider, events } = setup([call(1, long), call(1, long), call(1, long), call(1, long), call(1, long), { text: 'done' }], { strategies });
    const result = await agent.prompt('go');
    expect(result.stopReason).toBe('stop');
    expect(eventsOf(events, 'compaction').map((e) => e.strategies)).toEqual([['tool-results', 'summary']]);
    const sent = provider.requests.at(-1)?.messages ?? [];
    expect(sent[0]).toBe(agent.messages[0]);
    expect(sent[1]).toMatchObject({ role: 'user', content: `${SUMMARY_HEADER}\n\nGoals: go. Progress: four steps taken.` });
    expect(sent.slice(2)).toEqual(agent.messages.slice(-3, -1));
    expect(Math.max(...inputs(agent.messages))).toBeLessThanOrEqual(3200);
    const summed = inputs(agent.messages).reduce((a, b) => a + b, 0);
    expect(result.usage.input).toBe(summed + 900);
    expect(eventsOf(events, 'usage').some((e) => e.usage.input === 900 && e.usage.output === 40)).toBe(true);
  });

  it('drops the oldest turns when the summary call fails, and reports the failure', async () => {
    const summary = summarizer([{ error: { kind: 'auth', message: 'bad key' } }]);
    const strategies = [truncateToolResults({ budgetTokens: 100 }), summarizeOlderTurns({ summarizer: { provider: summary, model: 's' } }), dropOldestTurns()];
    const long = 'y'.repeat(3000);
    const { agent, provider, events } = setup([call(1, long), call(1, long), call(1, long), call(1, long), call(1, long), { text: 'done' }], { strategies });
    expect((await agent.prompt('go')).stopReason).toBe('stop');
    expect(eventsOf(events, 'compaction').map((e) => e.strategies)).toEqual([['tool-results', 'drop-oldest']]);
    expect(eventsOf(events, 'error').map((e) => e.error)).toEqual([
      { code: 'compaction_failed', message: 'compaction step summary failed: the summary call failed: bad key' },
    ]);
    const sent = provider.requests.at(-1)?.messages ?? [];
    expect(textOf(sent[1] as Message)).toMatch(/^\[Earlier messages of this conversation were removed/);
    expect(Math.max(...inputs(agent.messages))).toBeLessThanOrEqual(3200);
  });

  it('still compacts after an overflow error, with no window known, and retries', async () => {
    const strategies = [truncateToolResults({ budgetTokens: 100 }), dropOldestTurns()];
    const { agent, provider, events } = setup(
      [call(300), call(300), { error: { kind: 'overflow', message: 'prompt is too long' } }, { text: 'fits' }],
      { strategies },
      {},
      null,
    );
    const result = await agent.prompt('go');
    expect(result.stopReason).toBe('stop');
    expect(result.text).toBe('fits');
    const [compaction] = eventsOf(events, 'compaction');
    expect(compaction).toMatchObject({ reason: 'overflow', strategies: ['tool-results', 'drop-oldest'] });
    expect(compaction?.tokensAfter).toBeLessThanOrEqual((compaction?.tokensBefore ?? 0) / 2 + 200);
    expect(provider.requests.map((r) => r.messages.length)).toEqual([1, 3, 5, 4]);
    expect(agent.messages.map((m) => m.role)).toEqual(['user', 'assistant', 'toolResult', 'assistant', 'toolResult', 'assistant']);
  });

  it('gives transformContext hooks the compacted context and what the compaction did', async () => {
    const seen: Array<{ count: number; compaction: CompactionInfo | undefined }> = [];
    const hooks = {
      transformContext: (messages: readonly Message[], options: { compaction?: CompactionInfo }) => (
        seen.push({ count: messages.length, compaction: options.compaction }), messages
      ),
    };
    const { agent, events } = setup([call(300), call(300), call(300), call(300), call(300), { text: 'done' }], { strategies: [dropOldestTurns()] }, { hooks });
    await agent.prompt('go');
    const [event] = eventsOf(events, 'compaction');
    const { type: _t, runId: _r, agentPath: _a, seq: _s, ts: _ts, ...info } = event ?? ({} as NonNullable<typeof event>);
    expect(seen.slice(0, 5).every((s) => s.compaction === undefined)).toBe(true);
    expect(seen[5]).toEqual({ count: agent.contextMessages.length - 1, compaction: info });
  });

  it('leaves room for the reply: the threshold is at most the window minus maxTokens', async () => {
    const { agent, events } = setup([call(300), call(300), { text: 'done' }], { strategies: [dropOldestTurns()] }, { maxTokens: 3000 });
    await agent.prompt('go');
    expect(eventsOf(events, 'compaction')).toHaveLength(1);
    expect(Math.max(...inputs(agent.messages))).toBeLessThanOrEqual(1000);
  });

  it('with no steps, sends requests up to the window and ends in error past it, never compacting', async () => {
    const { agent, provider, events } = setup([call(300), call(300), call(300), call(300), call(300), call(300), { text: 'never' }], { strategies: [] });
    const result = await agent.prompt('go');
    expect(result.stopReason).toBe('error');
    expect(result.error?.message).toMatch(/over the context window of 4000/);
    expect(eventsOf(events, 'compaction')).toEqual([]);
    expect(provider.requests).toHaveLength(6);
  });

  it('rejects a threshold outside (0, 1]', () => {
    expect(() => setup([], { threshold: 1.5 })).toThrow(expect.objectContaining({ code: 'invalid_option' }));
  });
});
