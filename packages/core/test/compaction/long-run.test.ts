/**
 * A long run (REQ-171 of the roadmap seed): one agent, 1,000 turns of tool calls on a small
 * context window with the default cascade (a scripted summarizer, failing now and then so the
 * drop step runs too). Every request sent to the model stays under the window, nothing is lost
 * from the stored history, every step of the cascade is used, and the run finishes.
 */
import { describe, expect, it } from 'vitest';
import { Agent, dropOldestTurns, summarizeOlderTurns, textOf, truncateToolResults, type Tool } from '../../src/index.js';
import { createScriptedProvider, SimulatedClock, type ScriptStep } from '../../src/testing.js';
import { eventsOf } from '../support-extra.js';
import { record } from '../support.js';

const TURNS = 1000;
const WINDOW = 8000;

/** Output of the n-th call: 2,000 characters, and 16,000 every tenth call. */
const output = (n: number): string => `call ${n}\n${'o'.repeat(n % 10 === 0 ? 16_000 : 2000)}`;

describe('a 1,000-turn run with compaction', () => {
  it('keeps every request under the window and every message in the history, and finishes', async () => {
    const clock = new SimulatedClock();
    const tool: Tool = {
      name: 'work',
      description: 'Does a step of the work.',
      parameters: { type: 'object', properties: { n: { type: 'number' } } },
      readOnly: true,
      execute: (args) => ({ content: output(Number(args['n'])) }),
    };
    const script: ScriptStep[] = Array.from({ length: TURNS - 1 }, (_, i) => ({
      text: `Step ${i + 1}: on it.`,
      toolCalls: [{ name: 'work', arguments: { n: i + 1 } }],
    }));
    script.push({ text: 'All done.' });
    const summaries: ScriptStep[] = Array.from({ length: TURNS }, (_, i) =>
      i % 5 === 4 ? { error: { kind: 'api', message: 'summarizer down' } } : { text: `Goals: do the work. Progress: summary ${i + 1}.` },
    );
    const summarizer = createScriptedProvider(summaries, { clock, recordRequests: false });
    const agent = new Agent({
      provider: createScriptedProvider(script, { clock, inputFromSize: true, recordRequests: false }),
      model: 'main',
      clock,
      tools: [tool],
      contextWindow: WINDOW,
      limits: { maxTurns: Infinity },
      compaction: { strategies: [truncateToolResults(), summarizeOlderTurns({ summarizer: { provider: summarizer, model: 'small' } }), dropOldestTurns()] },
    });
    const events = record(agent);

    const result = await agent.prompt('Do the work, one step at a time.');

    expect(result.stopReason).toBe('stop');
    expect(result.turns).toBe(TURNS);
    expect(result.text).toBe('All done.');
    const sent = agent.messages.flatMap((m) => (m.role === 'assistant' ? [m.usage.input] : []));
    expect(sent).toHaveLength(TURNS);
    expect(Math.max(...sent)).toBeLessThanOrEqual(WINDOW);
    expect(agent.messages).toHaveLength(2 * TURNS);
    const results = agent.messages.filter((m) => m.role === 'toolResult');
    expect(results.map((m) => textOf(m))).toEqual(Array.from({ length: TURNS - 1 }, (_, i) => output(i + 1)));
    const compactions = eventsOf(events, 'compaction');
    expect(compactions.length).toBeGreaterThan(50);
    expect(new Set(compactions.flatMap((e) => e.strategies))).toEqual(new Set(['tool-results', 'summary', 'drop-oldest']));
    expect(compactions.every((e) => e.reason === 'threshold' && e.tokensAfter < e.tokensBefore)).toBe(true);
    expect(eventsOf(events, 'error').every((e) => e.error.code === 'compaction_failed')).toBe(true);
    expect(agent.contextMessages.length).toBeLessThan(40);
  });
});
