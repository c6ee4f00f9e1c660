/**
 * `dropOldestTurns` (the cascade's last step): keeps the first user message, puts the marker after
 * it and keeps the newest turns that fit in `fill` of the target; the last turn always stays, a
 * tool call is never separated from its results whatever the target, and the input is not changed.
 */
import { describe, expect, it } from 'vitest';
import { DROPPED_TURNS_MARKER, dropOldestTurns, messagesTokens, type Message } from '../../src/index.js';
import { assistant, compactionContext, labels, pairsIntact, result, toolHistory, user } from './history.js';

describe('dropOldestTurns', () => {
  const history: Message[] = [
    user('task'),
    assistant('a1', ['c1']),
    result('c1'),
    assistant('a2', ['c2', 'c3']),
    result('c2'),
    result('c3'),
    assistant('a3'),
    user('more'),
    assistant('a4', ['c4']),
    result('c4'),
  ];

  it('keeps the task, a marker and the newest turns that fit', async () => {
    const input = toolHistory(10, 400);
    const copy = structuredClone(input);
    const target = 800;
    const out = await dropOldestTurns().compact(input, compactionContext(target));
    expect(out[0]).toBe(input[0]);
    expect(out[1]).toMatchObject({ role: 'user', content: DROPPED_TURNS_MARKER });
    expect(out.at(-1)).toBe(input.at(-1));
    expect(messagesTokens(out)).toBeLessThanOrEqual(target * 0.75);
    expect(labels(out)).toEqual(['task', DROPPED_TURNS_MARKER.slice(0, 40), 'step 7', 'c7', 'step 8', 'c8', 'step 9', 'c9', 'step 10', 'c10', 'done']);
    expect(input).toEqual(copy);
  });

  it('never separates a tool call from its results, whatever the target', async () => {
    for (const target of [0, 5, 20, 40, 60, 80, 1000]) {
      const out = await dropOldestTurns().compact(history, compactionContext(target));
      expect(out[0]).toBe(history[0]);
      expect(out.at(-1)).toBe(history.at(-1));
      expect(out.length, `target ${target}`).toBeLessThanOrEqual(history.length);
      expect(pairsIntact(out), `target ${target}`).toBe(true);
    }
  });

  it('replaces an earlier marker rather than piling markers up', async () => {
    const first = await dropOldestTurns().compact(toolHistory(10, 400), compactionContext(800));
    const second = await dropOldestTurns().compact([...first, assistant('more', ['d1']), result('d1', 'y'.repeat(1200))], compactionContext(800));
    expect(second.filter((m) => m.role === 'user' && m.content === DROPPED_TURNS_MARKER)).toHaveLength(1);
    expect(second[1]).toMatchObject({ content: DROPPED_TURNS_MARKER });
  });

  it('leaves a context of one turn as it is', async () => {
    const input = [user('task'), assistant('a1', ['c1']), result('c1', 'z'.repeat(4000))];
    expect(await dropOldestTurns().compact(input, compactionContext(10))).toEqual(input);
  });
});
