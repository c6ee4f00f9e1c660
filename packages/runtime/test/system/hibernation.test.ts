/**
 * Hibernation: with a policy, an actor waiting for a user is checkpointed and dropped from memory
 * (its instrumentation trace ends while the run still waits), and the next reply, approval or abort
 * for its path restores it from the store; the run and its parents go on as if nothing happened.
 * Waiting for its outcome does not wake it.
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it, vi } from 'vitest';
import { createFileRunStore, createRuntime, type HostedActor, type Instrumentation, type RunHandle, type RunStore } from '../../src/index.js';
import { finished, untilWaiting } from '../../src/testing.js';
import { plannerGraph, plannerTools } from './planner-graph.js';

const tools = plannerTools;
const graph = plannerGraph;

/** Counts, per path, the actors hosted in memory now (a hibernated one is not). */
function hostedActors(): {
  instrumentation: Instrumentation;
  hosted: (path: string) => number;
  woken: (path: string) => number;
  hostedIn: (runId: string) => number;
  started: (path: string) => number;
} {
  const live = new Map<string, number>();
  const liveByRun = new Map<string, number>();
  const starts = new Map<string, number>();
  const add = (map: Map<string, number>, path: string, by: number) => map.set(path, (map.get(path) ?? 0) + by);
  const instrumentation: Instrumentation = {
    run: () => ({ carrier: undefined, end: () => undefined, leave: () => undefined }),
    step: () => ({ carrier: undefined, end: () => undefined }),
    actor: (actor: HostedActor) => {
      const { path, runId } = actor.request;
      add(live, path, 1);
      add(liveByRun, runId, 1);
      add(starts, path, 1);
      return {
        end: () => {
          add(live, path, -1);
          add(liveByRun, runId, -1);
        },
      };
    },
    carrierOf: () => undefined,
  };
  return {
    instrumentation,
    hosted: (path) => live.get(path) ?? 0,
    woken: (path) => (starts.get(path) ?? 1) - 1,
    hostedIn: (runId) => liveByRun.get(runId) ?? 0,
    started: (path) => starts.get(path) ?? 0,
  };
}

const PLANNER = 'lead/planner#1';

describe('hibernation', () => {
  it.each([
    ['memory', () => undefined],
    ['file', () => createFileRunStore(mkdtempSync(join(tmpdir(), 'troupe-hibernation-')))],
  ] as Array<[string, () => RunStore | undefined]>)('drops a waiting child from memory and wakes it on each answer (%s store)', async (_name, makeStore) => {
    const { instrumentation, hosted, woken } = hostedActors();
    const store = makeStore();
    const runtime = createRuntime({ graph, tools, instrumentation, hibernation: { afterMs: 0 }, ...(store === undefined ? {} : { store }) });
    const run = runtime.run('plan');
    await untilWaiting(run);
    await vi.waitFor(() => expect(hosted(PLANNER)).toBe(0), { timeout: 20_000 });
    // The lead waits on its delegation, not on a person: it stays.
    expect(hosted('lead')).toBe(1);
    expect(run.waiting).toEqual([{ path: PLANNER, input: { kind: 'question', callId: 'call_1_1', toolName: 'ask', question: 'Where to?' } }]);

    const approval = new Promise<void>((resolve) => run.events$.subscribe((e) => e.type === 'permission_request' && resolve()));
    await run.reply('Lisbon', PLANNER);
    await approval;
    expect(woken(PLANNER)).toBe(1);
    // Waiting again, for an approval this time: it goes to sleep again, and wakes again.
    await vi.waitFor(() => expect(hosted(PLANNER)).toBe(0), { timeout: 20_000 });
    await run.approve('call_2_1', 'allow_once');
    const { result, status } = await finished(run);
    expect(status).toBe('done');
    expect(result.text).toBe('Plan: going to written');
    expect(woken(PLANNER)).toBe(2);
    await runtime.close();
  });

  it('aborts a hibernated actor: it is woken, aborted, and the run ends aborted', async () => {
    const { instrumentation, hosted } = hostedActors();
    const runtime = createRuntime({ graph, tools, instrumentation, hibernation: { afterMs: 0 } });
    const run = runtime.run('plan');
    await untilWaiting(run);
    await vi.waitFor(() => expect(hosted(PLANNER)).toBe(0), { timeout: 20_000 });
    await run.abort();
    const { status } = await finished(run);
    expect(status).toBe('aborted');
    await runtime.close();
  });

  it('tells everyone waiting for a sleeping entry once it is woken and ends, whenever they asked', async () => {
    const { instrumentation, hosted } = hostedActors();
    const runtime = createRuntime({ graph: plannerGraph, tools, instrumentation, hibernation: { afterMs: 0 } });
    const runs = [runtime.run('plan', { entry: 'planner' }), runtime.run('plan', { entry: 'planner' })];
    const [early, late] = runs as [RunHandle, RunHandle];
    // One run's outcome is asked for before its entry sleeps, the other's only after it has woken.
    const earlyResult = early.result;
    await Promise.all(runs.map(untilWaiting));
    await vi.waitFor(() => expect(hosted('planner')).toBe(0), { timeout: 20_000 });
    // Asked of the transport too while it sleeps: a second waiter of the same outcome.
    const fromTransport = runtime.transport.result(late.id, late.entry);
    for (const run of runs) {
      await run.reply('Lisbon');
      await vi.waitFor(() => expect(run.waiting).toHaveLength(1), { timeout: 20_000 });
      await run.approve('call_2_1', 'allow_once');
    }
    expect((await earlyResult).text).toBe('going to written');
    expect((await late.result).text).toBe('going to written');
    expect((await fromTransport).text).toBe('going to written');
    expect(await runtime.store.getRun(late.id)).toMatchObject({ status: 'done', stopReason: 'stop' });
    await runtime.close();
  });

  it('keeps at most maxWaiting actors waiting in memory: the longest-waiting sleep first, and all finish', async () => {
    const { instrumentation, hosted, hostedIn, started } = hostedActors();
    const runtime = createRuntime({ graph, tools, instrumentation, hibernation: { maxWaiting: 1 } });
    const runs: RunHandle[] = [];
    for (let i = 0; i < 3; i++) {
      const run = runtime.run('plan', { entry: 'planner' });
      runs.push(run);
      await untilWaiting(run);
    }
    // Three waiting, one may stay awake: the first two sleep, the last one is still in memory.
    await vi.waitFor(() => expect(hosted('planner')).toBe(1), { timeout: 20_000 });
    expect(runs.map((run) => hostedIn(run.id))).toEqual([0, 0, 1]);
    for (const run of runs) {
      await run.reply('Lisbon');
      await vi.waitFor(() => expect(run.waiting).toHaveLength(1), { timeout: 20_000 });
      await run.approve('call_2_1', 'allow_once');
      expect((await run.result).text).toBe('going to written');
    }
    // The first two were woken for their answers. The first, waiting again for its approval while
    // the third waited too, put the third (waiting longer) to sleep: it was woken for its answer.
    expect(started('planner') - runs.length).toBe(3);
    await runtime.close();
  });

  it('keeps an actor that is answered before its bedtime', async () => {
    const { instrumentation, woken } = hostedActors();
    const runtime = createRuntime({ graph, tools, instrumentation, hibernation: { afterMs: 60_000 } });
    const run = runtime.run('plan');
    await untilWaiting(run);
    await run.reply('Lisbon', PLANNER);
    await vi.waitFor(() => expect(run.waiting).toHaveLength(1), { timeout: 20_000 });
    await run.approve('call_2_1', 'allow_once');
    expect((await finished(run)).status).toBe('done');
    expect(woken(PLANNER)).toBe(0);
    await runtime.close();
  });
});
