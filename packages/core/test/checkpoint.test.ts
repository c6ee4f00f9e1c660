/**
 * Incremental checkpoints: `checkpoint(mark)` returns the snapshot without its history plus only
 * the messages added since the previous checkpoint, so a turn's checkpoint does not grow with
 * the conversation; head + every added slice rebuild exactly `snapshot()`; a compaction does not
 * rewrite the history (its view is in the head), so checkpoints keep appending through it.
 */
import { describe, expect, it } from 'vitest';
import { withHistory, type AgentCheckpoint, type Message } from '../src/index.js';
import { echoTool, nextEvent, scriptedAgent } from './support.js';

describe('checkpoints', () => {
  it('carry only what each turn added and rebuild the snapshot', async () => {
    const script = Array.from({ length: 4 }, (_, i) => ({ toolCalls: [{ name: 'echo', arguments: { text: `t${i}` } }] }));
    const agent = scriptedAgent([...script, { text: 'done' }], { tools: [echoTool()] });
    const checkpoints: AgentCheckpoint[] = [];
    agent.events$.subscribe((e) => {
      if (e.type === 'turn_end') checkpoints.push(agent.checkpoint(checkpoints.at(-1)?.mark));
    });
    await agent.prompt('go');
    expect(checkpoints.map((c) => [c.from, c.added.map((m) => m.role)])).toEqual([
      [0, ['user', 'assistant', 'toolResult']],
      [3, ['assistant', 'toolResult']],
      [5, ['assistant', 'toolResult']],
      [7, ['assistant', 'toolResult']],
      [9, ['assistant']],
    ]);
    expect(checkpoints.every((c) => c.head.context.messages.length === 0)).toBe(true);
    const final = agent.checkpoint(checkpoints.at(-1)!.mark);
    expect(final.added).toEqual([]);
    const history: Message[] = [];
    for (const c of [...checkpoints, final]) history.splice(c.from, history.length - c.from, ...c.added);
    expect(withHistory(final.head, history)).toEqual(agent.snapshot());
  });

  it('keep appending after a compaction, which leaves the history whole', async () => {
    const agent = scriptedAgent([{ text: 'one' }, { error: { kind: 'overflow' } }, { text: 'two' }], {
      compaction: { compact: (messages) => messages.slice(-1) },
    });
    await agent.prompt('first');
    const before = agent.checkpoint();
    const compacted = nextEvent(agent, 'compaction');
    await agent.prompt('second');
    await compacted;
    const after = agent.checkpoint(before.mark);
    expect(after.from).toBe(2);
    expect(after.added.map((m) => m.role)).toEqual(['user', 'assistant']);
    expect(after.head.context.view).toMatchObject({ head: [], from: 2, at: 3 });
    expect(withHistory(after.head, [...before.added, ...after.added])).toEqual(agent.snapshot());
  });
});
