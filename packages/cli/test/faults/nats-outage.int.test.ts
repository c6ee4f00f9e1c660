/**
 * nats-server going down mid-run and coming back with the same store loses nothing: a lead in the
 * `troupe run --nats` process waits on six remote children on two `troupe worker` processes; once
 * every child has written its side effect and is thinking over its answer, the server is stopped
 * (its JetStream store kept), left down a moment, and started again on the same port. The
 * coordinator and the workers reconnect by themselves: the run ends with the right answer, every
 * result arrives once, no side effect is repeated, the run is recorded as done, and both workers
 * are still up and listed.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import { describe, expect, it } from 'vitest';
import { childPaths, expectAnsweredOnce, inSecondTurn, useFaultRig } from './fault-rig.js';

const GRAPH = 'faults/nats-outage.yaml';
const CHILDREN = childPaths(6);
/** How long the server stays down: the scenario itself, not a wait for something. */
const OUTAGE_MS = 1500;

const startRig = useFaultRig();

describe('nats-server stopped and restarted mid-run', () => {
  it('lets the coordinator and the workers reconnect and the run finish with the right output', { timeout: 120_000 }, async () => {
    const faults = await startRig();
    const workers = [...(await faults.workers(GRAPH, ['w1', 'w2'])).values()];
    const { run, runId } = await faults.startRun(GRAPH);

    await inSecondTurn(faults, runId, CHILDREN);
    await faults.server.stop({ keepStore: true });
    expect(run.child.exitCode).toBeNull();
    await sleep(OUTAGE_MS);
    await faults.server.restart();

    const finished = await run.exited;
    expect(finished.stderr).toMatch(/\n✓ done · /);
    expect(finished.stdout).toMatch(/^All answered\. Last: Answer [0-9a-f-]{36}\n$/);
    expect(finished.code).toBe(0);
    await expectAnsweredOnce(faults, runId, CHILDREN);
    expect(await faults.store.getRun(runId)).toMatchObject({ status: 'done', stopReason: 'stop' });

    expect(workers.map((w) => w.child.exitCode)).toEqual([null, null]);
    const listed = await faults.run(['workers', '--json', ...faults.nats]);
    expect(listed.code).toBe(0);
    const ids = listed.stdout
      .trim()
      .split('\n')
      .map((line) => (JSON.parse(line) as { id: string }).id);
    expect(ids.sort()).toEqual(['w1', 'w2']);
  });
});
