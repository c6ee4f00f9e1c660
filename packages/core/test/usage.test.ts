/**
 * Usage and cost (behaviour 11): each reply's token counts and dollar cost are summed over the
 * run's turns into `result.usage`, a `usage` event per turn carries that turn's usage and the
 * growing total, and a new run starts counting from zero. Reasoning tokens, where a reply reports
 * them, are summed apart (part of `output`). `addUsage` is tested directly.
 */
import { describe, expect, it } from 'vitest';
import { addUsage, emptyUsage, type Usage } from '../src/index.js';
import { echoTool, record, scriptedAgent } from './support.js';
import { eventsOf } from './support-extra.js';

const call = { name: 'echo', arguments: { text: 'x' } };

describe('usage', () => {
  it('sums usage and cost across turns and reports a growing total per turn', async () => {
    const agent = scriptedAgent(
      [
        { toolCalls: [call], usage: { input: 100, output: 20 }, cost: 0.01 },
        { toolCalls: [call], usage: { input: 150, output: 30, cacheRead: 5, cacheWrite: 7 }, cost: 0.02 },
        { text: 'done', usage: { input: 200, output: 10 }, cost: 0.005 },
      ],
      { tools: [echoTool()] },
    );
    const events = record(agent);
    const result = await agent.prompt('go');
    expect(result.turns).toBe(3);
    const { cost, ...tokens } = result.usage;
    expect(tokens).toEqual({ input: 450, output: 60, cacheRead: 5, cacheWrite: 7, totalTokens: 522 });
    expect(cost.total).toBeCloseTo(0.035, 10);

    const usage = eventsOf(events, 'usage');
    expect(usage.map((e) => e.usage.input)).toEqual([100, 150, 200]);
    expect(usage.map((e) => e.usage.cost.total)).toEqual([0.01, 0.02, 0.005]);
    expect(usage.map((e) => e.total.totalTokens)).toEqual([120, 312, 522]);
    const totals = usage.map((e) => e.total.cost.total);
    expect(totals[0]).toBeCloseTo(0.01, 10);
    expect(totals[1]).toBeCloseTo(0.03, 10);
    expect(usage.at(-1)?.total).toEqual(result.usage);
    // One usage event per turn, each before that turn ends.
    const order = events.filter((e) => e.type === 'usage' || e.type === 'turn_end').map((e) => e.type);
    expect(order).toEqual(['usage', 'turn_end', 'usage', 'turn_end', 'usage', 'turn_end']);
  });

  it('sums reasoning tokens where replies report them, and leaves them out where none does', async () => {
    const agent = scriptedAgent(
      [
        { toolCalls: [call], usage: { input: 10, output: 40, reasoning: 30 } },
        { toolCalls: [call], usage: { input: 10, output: 5 } },
        { text: 'done', usage: { input: 10, output: 25, reasoning: 20 } },
      ],
      { tools: [echoTool()] },
    );
    const result = await agent.prompt('go');
    expect(result.usage).toMatchObject({ output: 70, reasoning: 50 });
    expect((await scriptedAgent([{ text: 'plain', usage: { input: 1, output: 1 } }]).prompt('go')).usage).not.toHaveProperty('reasoning');
  });

  it('counts failed attempts as nothing and starts each run from zero', async () => {
    const agent = scriptedAgent([
      { text: 'one', usage: { input: 10, output: 1 }, cost: 1 },
      { error: { kind: 'auth' } },
      { text: 'three', usage: { input: 30, output: 3 }, cost: 3 },
    ]);
    const first = await agent.prompt('a');
    expect(first.usage.totalTokens).toBe(11);
    const failed = await agent.prompt('b');
    expect(failed.stopReason).toBe('error');
    expect(failed.usage).toEqual(emptyUsage());
    const third = await agent.prompt('c');
    expect(third.usage.input).toBe(30);
    expect(third.usage.totalTokens).toBe(33);
    expect(third.usage.cost.total).toBe(3);
  });
});

describe('addUsage', () => {
  const usage = (n: number, unknown?: boolean): Usage => ({
    input: n,
    output: 2 * n,
    cacheRead: 3 * n,
    cacheWrite: 4 * n,
    totalTokens: 10 * n,
    cost: { input: n / 10, output: n / 5, cacheRead: n / 100, cacheWrite: n / 50, total: n, ...(unknown === undefined ? {} : { unknown }) },
  });

  it('adds two non-zero usages into a new object without touching its inputs', () => {
    const a = usage(1);
    const b = usage(2);
    const sum = addUsage(a, b);
    expect(sum).toEqual({ ...usage(3), cost: { input: 0.1 + 0.2, output: 0.2 + 0.4, cacheRead: 0.01 + 0.02, cacheWrite: 0.02 + 0.04, total: 3 } });
    expect(sum).not.toBe(a);
    expect(sum.cost).not.toBe(a.cost);
    expect(a).toEqual(usage(1));
    expect(b).toEqual(usage(2));
  });

  it('gives the other side itself when one side is zero (usages are values: nothing changes one once made)', () => {
    const a = usage(1);
    expect(addUsage(emptyUsage(), a)).toBe(a);
    expect(addUsage(a, emptyUsage())).toBe(a);
    // A zero with an unknown price or a reasoning count still says something: the sum is new and keeps it.
    const unknown = { ...emptyUsage(), cost: { ...emptyUsage().cost, unknown: true } };
    expect(addUsage(unknown, a)).not.toBe(a);
    expect(addUsage(unknown, a).cost.unknown).toBe(true);
    expect(addUsage(a, { ...emptyUsage(), reasoning: 0 }).reasoning).toBe(0);
  });

  it('sums reasoning when either side has it', () => {
    expect(addUsage({ ...usage(1), reasoning: 5 }, usage(1)).reasoning).toBe(5);
    expect(addUsage({ ...usage(1), reasoning: 5 }, { ...usage(1), reasoning: 2 }).reasoning).toBe(7);
    expect('reasoning' in addUsage(usage(1), usage(1))).toBe(false);
  });

  it('keeps the unknown-price flag when either side has it', () => {
    expect(addUsage(usage(1, true), usage(1)).cost.unknown).toBe(true);
    expect(addUsage(usage(1), usage(1, true)).cost.unknown).toBe(true);
    expect('unknown' in addUsage(usage(1), usage(1)).cost).toBe(false);
  });
});
