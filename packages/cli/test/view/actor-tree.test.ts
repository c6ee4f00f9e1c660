/**
 * Proves the actor tree arranges a run's actors as the run does: a pipeline's steps in their
 * order (every step shown before it runs, a parallel step's sub-steps under it, map items under
 * their step in their order), delegated children in the order they were numbered (`#10` after
 * `#9`, not sorted as text, `#1` before `#2` whichever started first; regression: the terminal
 * test saw map item 2 above item 1), groups counting the actors below them, and each actor's
 * running tools with their start. `formatRow`, which `troupe show` prints, keeps its format.
 */
import type { PipelineStepConfig } from '@troupe/runtime';
import { describe, expect, it } from 'vitest';
import { ActorTree, formatRow } from '../../src/view/actor-tree.js';
import { eventAt } from './events.js';

const STEPS: PipelineStepConfig[] = [
  { kind: 'agent', id: 'outline', agent: 'planner', input: '' },
  { kind: 'map', id: 'sections', over: '', agent: 'writer', input: '' },
  {
    kind: 'parallel',
    id: 'review',
    steps: [
      { kind: 'agent', id: 'style', agent: 'critic', input: '' },
      { kind: 'agent', id: 'facts', agent: 'critic', input: '' },
    ],
  },
  { kind: 'agent', id: 'edit', agent: 'editor', input: '' },
];

describe('ActorTree', () => {
  it("shows a pipeline's steps in order before they run, and map items under their step", () => {
    const tree = new ActorTree();
    tree.layout('report', STEPS);
    tree.apply(eventAt('report/outline', { type: 'state', state: 'done' }));
    tree.apply(eventAt('report/sections/1', { type: 'state', state: 'thinking' }));
    tree.apply(eventAt('report/sections/2', { type: 'state', state: 'done' }));
    expect(tree.rows.map((row) => `${'  '.repeat(row.depth)}${row.path} ${row.kind} ${row.state}`)).toEqual([
      'report group queued',
      '  report/outline actor done',
      '  report/sections group pending',
      '    report/sections/1 actor thinking',
      '    report/sections/2 actor done',
      '  report/review group pending',
      '    report/review/style actor pending',
      '    report/review/facts actor pending',
      '  report/edit actor pending',
    ]);
    const [root, , sections] = tree.rows;
    expect(root?.counts).toEqual({ running: 1, ended: 2, waiting: 3 });
    expect(sections?.counts).toEqual({ running: 1, ended: 1, waiting: 0 });
  });

  it('keeps delegated children and map items in the order they were numbered, whichever started first', () => {
    const map = new ActorTree();
    for (const n of [2, 1, 3]) map.apply(eventAt(`report/sections/${n}`, { type: 'agent_start', sessionId: 'ses_1' }));
    expect(map.rows.map((row) => row.path)).toEqual(['report', 'report/sections', 'report/sections/1', 'report/sections/2', 'report/sections/3']);
    const tree = new ActorTree();
    for (const n of [1, 10, 2, 9]) tree.apply(eventAt(`lead/researcher#${n}`, { type: 'agent_start', sessionId: 'ses_1' }));
    tree.apply(eventAt('lead/critic#1', { type: 'agent_start', sessionId: 'ses_1' }));
    expect(tree.rows.map((row) => row.path)).toEqual([
      'lead',
      'lead/researcher#1',
      'lead/researcher#2',
      'lead/researcher#9',
      'lead/researcher#10',
      'lead/critic#1',
    ]);
    expect(tree.rows.at(-1)?.last).toBe(true);
    expect(tree.rows[1]?.last).toBe(false);
  });

  it("tracks each actor's running tools with their start and latest progress", () => {
    const tree = new ActorTree();
    tree.apply(eventAt('a', { type: 'state', state: 'tool_executing' }, 1000));
    tree.apply(eventAt('a', { type: 'tool_start', toolCallId: 'c1', toolName: 'bash', args: {} }, 1200));
    tree.apply(eventAt('a', { type: 'tool_start', toolCallId: 'c2', toolName: 'search', args: {} }, 1300));
    tree.apply(eventAt('a', { type: 'tool_update', toolCallId: 'c1', toolName: 'bash', progress: 'compiling' }, 1400));
    expect(tree.rows[0]).toMatchObject({
      state: 'tool_executing',
      since: 1000,
      tools: [
        { callId: 'c1', name: 'bash', since: 1200, progress: 'compiling' },
        { callId: 'c2', name: 'search', since: 1300 },
      ],
    });
    tree.apply(
      eventAt('a', {
        type: 'tool_end',
        toolCallId: 'c1',
        toolName: 'bash',
        result: { role: 'toolResult', toolCallId: 'c1', toolName: 'bash', content: [], isError: false, timestamp: 0 },
      }),
    );
    expect(tree.rows[0]?.tools).toEqual([{ callId: 'c2', name: 'search', since: 1300 }]);
    tree.apply(eventAt('a', { type: 'state', state: 'thinking' }, 2000));
    expect(tree.rows[0]).toMatchObject({ state: 'thinking', since: 2000, tools: [] });
  });

  it('formats a row for troupe show as before', () => {
    const tree = new ActorTree();
    tree.apply(eventAt('lead', { type: 'turn_start', turn: 2 }));
    tree.apply(eventAt('lead/researcher#1', { type: 'agent_start', sessionId: 'ses_1' }));
    expect(tree.rows.map(formatRow)).toEqual(['lead  queued · turns 2 · tokens 0 · $0.0000', '  researcher#1  queued · turns 0 · tokens 0 · $0.0000']);
  });
});
