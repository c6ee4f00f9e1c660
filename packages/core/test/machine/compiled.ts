/**
 * The compiled chart checked against XState: one event sent to a `ChartRunner` started at a
 * snapshot must give the state, the context and the timers that XState's pure `transition()` gives.
 * Used by every table row and by the random walks of `compiled-chart.test.ts`. Not a test.
 */
import { expect } from 'vitest';
import type { ExecutableActionObject, SnapshotFrom } from 'xstate';
import { agentChart, type agentMachine } from '../../src/agent-machine.js';
import { ChartRunner } from '../../src/chart-runner.js';
import type { Clock } from '../../src/clock.js';
import type { AgentMachineEvent } from '../../src/machine-types.js';

type Snap = SnapshotFrom<typeof agentMachine>;

/** XState's actions for timers, as lines: `arm 500` for a delayed raise, `cancel` for its cancel. */
export function timerLines(actions: readonly ExecutableActionObject[]): string[] {
  return actions.flatMap((a): string[] => {
    if (a.type === 'xstate.raise') return [`arm ${String((a.params as { delay?: unknown }).delay)}`];
    return a.type === 'xstate.cancel' ? ['cancel'] : [];
  });
}

/** A runner started at `from`, and the timer lines its clock writes. */
export function runnerAt(from: Snap): { runner: ChartRunner; timers: string[]; crashed: unknown[] } {
  const timers: string[] = [];
  const crashed: unknown[] = [];
  const clock: Clock = {
    now: () => 0,
    setTimeout: (_fn, ms) => {
      timers.push(`arm ${ms}`);
      return timers.length;
    },
    clearTimeout: () => timers.push('cancel'),
  };
  const leaf = agentChart.leafOf(from.value);
  if (leaf === undefined) throw new Error(`no compiled leaf for ${JSON.stringify(from.value)}`);
  const runner = new ChartRunner(leaf, from.context, clock, { transitioned: () => {}, crashed: (error) => crashed.push(error) });
  return { runner, timers, crashed };
}

/** What XState's pure `transition()` gave for one event: the next snapshot and its actions, or its exception. */
export type XStateStep = { next: Snap; actions: readonly ExecutableActionObject[] } | { error: unknown };

/**
 * Sends `event` to `at.runner` and expects what XState gave. `at.timers` is emptied first; a
 * runner started at a snapshot never armed the timer of the state it starts in (a restored agent
 * re-arms it on `RESUME`), so pass `cancels: false` unless it was driven there by events.
 */
export function expectSameAsXState(
  at: { runner: ChartRunner; timers: string[]; crashed: unknown[] },
  event: AgentMachineEvent,
  xstate: XStateStep,
  cancels: boolean,
): void {
  at.timers.length = 0;
  at.runner.send(event);
  if ('error' in xstate) {
    expect(at.crashed, `XState threw on ${event.type}: ${String(xstate.error)}`).toHaveLength(1);
    return;
  }
  expect(at.crashed).toEqual([]);
  expect(at.runner.value, `state after ${event.type}`).toEqual(xstate.next.value);
  expect(at.runner.context, `context after ${event.type}`).toEqual(xstate.next.context);
  const expected = timerLines(xstate.actions);
  expect(at.timers, `timers of ${event.type}`).toEqual(cancels ? expected : expected.filter((line) => line !== 'cancel'));
}
