/**
 * A worker process killed mid-run (SIGKILL) loses nothing and repeats nothing: a lead in the
 * `troupe run --nats` process hands 30 tasks to remote children on three `troupe worker`
 * processes; each child appends a fresh token to a file (a side effect) in its first turn, then
 * answers with it after a long think. The worker running the most children is killed once every
 * child's side effect is written and checkpointed. Its children's tasks come back after the ack
 * wait and resume on the other workers from their checkpoints: the run ends well, the lead's
 * history holds one result per call with the token of that call's child, and no token is written
 * twice (no completed turn ran again).
 *
 * The lead is local (in the `troupe run` process), not on a worker: the fault under test is the
 * loss of children's hosts, and keeping the lead out of the killed process makes which tasks come
 * back, and what must be in the lead's history, exact. A redelivery that nats-server 2.9 stamps
 * as a first delivery must still resume from the checkpoint, not start the child afresh.
 */
import { describe, expect, it } from 'vitest';
import { actorRecord, busiestWorker, childPaths, expectAnsweredOnce, inSecondTurn, logLines, useFaultRig } from './fault-rig.js';

const GRAPH = 'faults/killed-worker.yaml';
const CHILDREN = childPaths(30);
// The ack wait leaves a loaded machine room for the heartbeats (every third of it): a live worker
// whose heartbeats go unconfirmed loses its children's tasks to the others, which restore them from
// their checkpoints (a side effect running then is not run again: the child is told it was interrupted).
const WORKER_FLAGS = ['--concurrency', '16', '--ack-wait', '3000', '--log-level', 'debug'];

const startRig = useFaultRig();

describe('a worker killed mid-run', () => {
  it('has its children resumed elsewhere from their checkpoints, each result arriving once and no side effect repeated', { timeout: 120_000 }, async () => {
    const faults = await startRig();
    const workers = await faults.workers(GRAPH, ['w1', 'w2', 'w3'], WORKER_FLAGS);
    const { run, runId } = await faults.startRun(GRAPH);

    await inSecondTurn(faults, runId, CHILDREN);
    const victim = await busiestWorker(faults, runId, CHILDREN, workers);
    victim.worker.child.kill('SIGKILL');
    expect((await victim.worker.exited).signal).toBe('SIGKILL');
    // On a loaded machine a child may end its think on the victim between the census and the kill:
    // only those still running when it died come back (none can end elsewhere this soon: the
    // ack wait and a whole think come first).
    const lost: string[] = [];
    for (const path of victim.paths) if ((await actorRecord(faults, runId, path))?.status !== 'ended') lost.push(path);
    expect(lost.length).toBeGreaterThan(0);

    const finished = await run.exited;
    expect(finished.stderr).toMatch(/\n✓ done · /);
    expect(finished.stdout).toMatch(/^All answered\. Last: Answer [0-9a-f-]{36}\n$/);
    expect(finished.code).toBe(0);
    await expectAnsweredOnce(faults, runId, CHILDREN);

    // The killed worker's children were taken again by the others, restored from their checkpoints.
    const survivors = [...workers].filter(([id]) => id !== victim.id).map(([, worker]) => worker);
    for (const survivor of survivors) survivor.child.kill('SIGTERM');
    const logs = (await Promise.all(survivors.map((s) => s.exited))).flatMap((exit) => logLines(exit.stderr, 'task claimed'));
    const resumed = logs.filter((line) => line['restored'] === true).map((line) => line['path']);
    expect(resumed.sort()).toEqual(lost.sort());
  });
});
