/**
 * Proves the live area's rows say what each actor does in words a person reads at a glance: the
 * tree drawn with guides, the running tool's name, how long it has run and what it last reported,
 * `thinking 1.2s`, turns, tokens and cost only once there are any (`1 turn`, `2 turns`), and a
 * group's counts.
 */
import { describe, expect, it } from 'vitest';
import { ActorTree } from '../../src/view/actor-tree.js';
import { formatElapsed, statusLines } from '../../src/view/status-lines.js';
import { PLAIN } from '../../src/view/style.js';
import { eventAt } from './events.js';

describe('statusLines', () => {
  it("draws the tree with each actor's activity, its running tool and elapsed time", () => {
    const tree = new ActorTree();
    tree.apply(eventAt('lead', { type: 'turn_start', turn: 1 }, 0));
    tree.apply(eventAt('lead', { type: 'state', state: 'tool_executing' }, 0));
    tree.apply(eventAt('lead', { type: 'tool_start', toolCallId: 'c1', toolName: 'delegate_to_researcher', args: {} }, 100));
    tree.apply(eventAt('lead/researcher#1', { type: 'turn_start', turn: 2 }, 200));
    tree.apply(eventAt('lead/researcher#1', { type: 'state', state: 'tool_executing' }, 200));
    tree.apply(eventAt('lead/researcher#1', { type: 'tool_start', toolCallId: 'c1', toolName: 'web_search', args: {} }, 300));
    tree.apply(
      eventAt('lead/researcher#1', { type: 'tool_update', toolCallId: 'c1', toolName: 'web_search', progress: '3 pages read of the ten it found' }, 350),
    );
    tree.apply(eventAt('lead/researcher#1/helper#1', { type: 'state', state: 'thinking' }, 400));
    tree.apply(eventAt('lead/critic#1', { type: 'turn_start', turn: 1 }, 200));
    tree.apply(eventAt('lead/critic#1', { type: 'state', state: 'done' }, 900));
    expect(statusLines(tree.rows, 3300, PLAIN, 34)).toEqual([
      '● lead · running delegate_to_researcher 3.2s · 1 turn',
      '├ ● researcher#1 · running web_search 3.0s · 2 turns',
      '│   ⎿ 3 pages read of the ten it',
      '│     found',
      '│ └ ● helper#1 · thinking 2.9s',
      '└ ✓ critic#1 · done · 1 turn',
    ]);
  });

  it('counts what runs below a group and shows pending steps', () => {
    const tree = new ActorTree();
    tree.layout('report', [
      { kind: 'map', id: 'sections', over: '', agent: 'w', input: '' },
      { kind: 'agent', id: 'edit', agent: 'e', input: '' },
    ]);
    tree.apply(eventAt('report/sections/1', { type: 'state', state: 'waiting_user' }, 0));
    tree.apply(eventAt('report/sections/2', { type: 'state', state: 'done' }, 0));
    expect(statusLines(tree.rows, 0, PLAIN)).toEqual([
      '● report · 1 running, 1 done',
      '├ ● sections · 1 running, 1 done',
      '│ ├ ? #1 · waiting for you',
      '│ └ ✓ #2 · done',
      '└ · edit · pending',
    ]);
  });

  it('formats elapsed time', () => {
    expect([formatElapsed(420), formatElapsed(12_300), formatElapsed(185_000)]).toEqual(['0.4s', '12s', '3m05s']);
  });
});
