/**
 * How the Agent applies the history changes of the statechart's outbox: appends go to the same
 * array in place (a turn costs what it adds, and incremental checkpoints see the same history),
 * a replacement is a new array that does not share the sender's, and other items are left alone.
 */
import { describe, expect, it } from 'vitest';
import { applyHistoryOps, isCommand, isHistoryOp } from '../src/machine-outputs.js';
import type { MachineOutput } from '../src/machine-types.js';
import type { Message } from '../src/messages.js';
import { NO_PATH, NO_RUN, NO_TS } from '../src/unstamped-event.js';

const user = (text: string): Message => ({ role: 'user', content: text, timestamp: 0 });

describe('applyHistoryOps', () => {
  it('appends in place, in outbox order, skipping events and commands', () => {
    const history = [user('a')];
    const outbox: MachineOutput[] = [
      { type: 'history.append', message: user('b') },
      { type: 'turn_start', turn: 1, runId: NO_RUN, agentPath: NO_PATH, seq: 0, ts: NO_TS },
      { type: 'cmd.model', request: 1, attempt: 0, compacted: false },
      { type: 'history.append', message: user('c') },
    ];
    const after = applyHistoryOps(history, outbox);
    expect(after).toBe(history);
    expect(after.map((m) => m.content)).toEqual(['a', 'b', 'c']);
  });

  it('replaces with a copy, then appends to the copy', () => {
    const history = [user('a')];
    const replacement = [user('x')];
    const after = applyHistoryOps(history, [
      { type: 'history.replace', messages: replacement },
      { type: 'history.append', message: user('y') },
    ]);
    expect(after).not.toBe(history);
    expect(after).not.toBe(replacement);
    expect(after.map((m) => m.content)).toEqual(['x', 'y']);
    expect(replacement).toHaveLength(1);
    expect(history.map((m) => m.content)).toEqual(['a']);
  });

  it('tells commands and history changes from events', () => {
    expect(isCommand({ type: 'cmd.steer', request: 1 })).toBe(true);
    expect(isHistoryOp({ type: 'cmd.steer', request: 1 })).toBe(false);
    expect(isHistoryOp({ type: 'history.replace', messages: [] })).toBe(true);
    expect(isCommand({ type: 'state', state: 'idle', runId: NO_RUN, agentPath: NO_PATH, seq: 0, ts: NO_TS })).toBe(false);
  });
});
