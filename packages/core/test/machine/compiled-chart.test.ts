/**
 * The compiled chart (what an `Agent` runs) against XState's own interpreter: random walks of
 * events from a fresh agent, sent in lockstep to XState's pure `transition()` and to one
 * `ChartRunner`, must agree after every event on the state, the context (and so the outbox) and the
 * timers armed and cancelled, including events a state ignores, stale requests and exceptions.
 * Every row of the transition tables is checked the same way (see `table` in chart.ts).
 */
import { describe, expect, it } from 'vitest';
import { transition } from 'xstate';
import { agentChart, agentMachine } from '../../src/agent-machine.js';
import { compileChart } from '../../src/compiled-chart.js';
import type { AgentMachineEvent, MachineSettings } from '../../src/machine-types.js';
import { createRunId } from '../../src/ids.js';
import {
  call,
  compacted,
  event,
  fresh,
  guardDone,
  guardRejected,
  modelDone,
  modelFailed,
  prompt,
  reply,
  result,
  T0,
  toolsAsk,
  toolsDone,
  user,
  type Snap,
} from './chart.js';
import { expectSameAsXState, runnerAt, type XStateStep } from './compiled.js';

/** The calls of the current batch, if one runs. */
const callsOf = (s: Snap) => s.context.run?.batch?.calls ?? [];

/** Events for any state; most are ignored in most states, which is checked as well. */
const EVENTS: ((s: Snap) => AgentMachineEvent)[] = [
  () => prompt(),
  () => event({ type: 'CONTINUE', runId: createRunId(T0) }),
  modelDone(reply([call('c1'), call('c2')], 'toolUse')),
  modelDone(reply([{ type: 'text', text: 'done' }])),
  modelDone(reply([call('c3')], 'length')),
  modelDone(reply([], 'error')),
  modelFailed('rate_limited', 250),
  modelFailed('overflow'),
  modelFailed('api'),
  (s) => event({ type: 'MODEL.COMPACT', request: s.context.request }),
  compacted(),
  (s) => toolsDone(callsOf(s).map((c) => result(c.id)))(s),
  (s) =>
    toolsDone(
      callsOf(s)
        .slice(1)
        .map((c) => result(c.id)),
      { suspended: [{ callId: callsOf(s)[0]?.id ?? 'c1', toolName: 'echo', question: 'which?' }] },
    )(s),
  (s) =>
    toolsDone(
      callsOf(s).map((c) => result(c.id)),
      { complete: { value: 42 } },
    )(s),
  toolsAsk('c1'),
  () => event({ type: 'APPROVE', callId: 'c1', decision: 'allow_once' }),
  () => event({ type: 'APPROVE', callId: 'c1', decision: 'deny_never' }),
  () => event({ type: 'APPROVE', callId: 'c1', decision: 'deny_interrupt' }),
  () => event({ type: 'REPLY', answer: 'that one' }),
  () => event({ type: 'STEER', message: user('stop that') }),
  () => event({ type: 'FOLLOW_UP', message: user('and then?') }),
  () => event({ type: 'CLEAR_QUEUES', queue: 'all' }),
  () => event({ type: 'ABORT', results: [] }),
  () => event({ type: 'LIMIT', limit: { kind: 'maxTurns', limit: 3, actual: 3 } }),
  () => event({ type: 'STOP', reason: 'hook' }),
  () => event({ type: 'RESUME' }),
  () => ({ type: 'xstate.after.retryDelay.agent.thinking.retrying' }) as unknown as AgentMachineEvent,
  guardDone(),
  guardRejected(),
  guardRejected({ code: 'guardrail_error', message: 'boom' }),
  // An answer to an earlier request: only the current one is taken.
  (s) => ({ ...modelDone(reply([{ type: 'text', text: 'late' }]))(s), request: s.context.request - 1 }),
  () => event({ type: 'SET_MESSAGES', messages: [user('again')] }),
  () => event({ type: 'RESET', sessionId: 'session-2' }),
];

/** A small deterministic random generator (mulberry32), so a failure names its seed. */
function random(seed: number): () => number {
  let a = seed;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

function xstateStep(snapshot: Snap, sent: AgentMachineEvent): XStateStep {
  try {
    const [next, actions] = transition(agentMachine, snapshot, sent);
    return { next, actions };
  } catch (error) {
    return { error };
  }
}

const SETTINGS: Partial<MachineSettings>[] = [
  {},
  { guardInput: true },
  { compacts: false, limits: { maxTurns: 3 } },
  { steeringMode: 'all', followUpMode: 'all' },
];

describe('the compiled chart', () => {
  for (const [index, settings] of SETTINGS.entries()) {
    it(`agrees with XState on 120 random walks of 40 events (settings ${index})`, { timeout: 60_000 }, () => {
      const next = random(index + 1);
      const visited = new Set<string>();
      for (let walk = 0; walk < 120; walk++) {
        let snapshot = fresh(settings);
        const at = runnerAt(snapshot);
        for (let i = 0; i < 40; i++) {
          const sent = (EVENTS[Math.floor(next() * EVENTS.length)] as (s: Snap) => AgentMachineEvent)(snapshot);
          const xstate = xstateStep(snapshot, sent);
          expectSameAsXState(at, sent, xstate, true);
          if ('error' in xstate) break;
          snapshot = xstate.next;
          visited.add(JSON.stringify(snapshot.value));
        }
      }
      // The walks reach every leaf but the guard's (only with guardInput) and, with compacts off, compacting.
      expect(visited.size).toBeGreaterThanOrEqual(index === 1 ? 10 : 8);
    });
  }

  it('finds the leaf of every state value, a compound one meaning its initial leaf', () => {
    expect(agentChart.leafOf('idle')?.value).toBe('idle');
    expect(agentChart.leafOf({ thinking: 'retrying' })?.value).toEqual({ thinking: 'retrying' });
    expect(agentChart.leafOf('thinking')?.value).toEqual({ thinking: 'streaming' });
    expect(agentChart.leafOf({ thinking: 'nowhere' })).toBeUndefined();
    expect(agentChart.leafOf('nowhere')).toBeUndefined();
  });

  it('refuses a chart with features the runner would skip', async () => {
    const { createMachine } = await import('xstate');
    const withEntry = createMachine({ id: 'm', initial: 'a', states: { a: { entry: () => {} } } });
    expect(() => compileChart(withEntry, () => undefined)).toThrow(/m\.a uses entry or exit actions/);
    const withInvoke = createMachine({ id: 'm', initial: 'a', states: { a: { invoke: { src: 'x' } } } });
    expect(() => compileChart(withInvoke, () => undefined)).toThrow(/invoked actors/);
    const parallel = createMachine({ id: 'm', type: 'parallel', states: { a: {}, b: {} } });
    expect(() => compileChart(parallel, () => undefined)).toThrow(/a parallel state/);
    const wildcard = createMachine({ id: 'm', initial: 'a', states: { a: { on: { 'MODEL.*': {} } } } });
    expect(() => compileChart(wildcard, () => undefined)).toThrow(/the wildcard event MODEL\.\*/);
    const foreignAction = createMachine({ id: 'm', initial: 'a', states: { a: { on: { GO: { actions: () => {} } } } } });
    expect(() => compileChart(foreignAction, () => undefined)).toThrow(/actions other than one assign/);
  });
});
