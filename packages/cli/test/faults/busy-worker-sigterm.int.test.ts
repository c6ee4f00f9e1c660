/**
 * SIGTERM on a busy worker loses nothing: a lead in the `troupe run --nats` process waits on eight
 * remote children on two `troupe worker --grace 200` processes, each child in a long second turn
 * after writing its side effect. The worker running the most children gets SIGTERM: it exits 0
 * before any of its children could have answered, having put each back on the queue to resume
 * at its last checkpoint; the other worker restores and finishes them. Every result arrives once,
 * and no side effect is repeated.
 */
import { describe, expect, it } from 'vitest';
import { actorRecord, busiestWorker, childPaths, expectAnsweredOnce, inSecondTurn, logLines, useFaultRig } from './fault-rig.js';

const GRAPH = 'faults/busy-worker.yaml';
const CHILDREN = childPaths(8);
const WORKER_FLAGS = ['--grace', '200', '--log-level', 'debug'];

const startRig = useFaultRig();

describe('SIGTERM on a busy worker', () => {
  it('hands its running tasks over to the other worker, and every result arrives once', { timeout: 120_000 }, async () => {
    const faults = await startRig();
    const workers = await faults.workers(GRAPH, ['w1', 'w2'], WORKER_FLAGS);
    const { run, runId } = await faults.startRun(GRAPH);

    await inSecondTurn(faults, runId, CHILDREN);
    const stopped = await busiestWorker(faults, runId, CHILDREN, workers);
    stopped.worker.child.kill('SIGTERM');
    const exit = await stopped.worker.exited;
    expect(exit.signal).toBeNull();
    expect(exit.code).toBe(0);
    // It did not wait for its children to finish: none of them had answered when it was gone.
    for (const path of stopped.paths) expect((await actorRecord(faults, runId, path))?.status, path).not.toBe('ended');
    expect(logLines(exit.stderr, 'worker stopping')).toMatchObject([{ running: stopped.paths.length, graceMs: 200 }]);
    expect(logLines(exit.stderr, 'could not hand a task over')).toEqual([]);

    const finished = await run.exited;
    expect(finished.stderr).toMatch(/\n✓ done · /);
    expect(finished.stdout).toMatch(/^All answered\. Last: Answer [0-9a-f-]{36}\n$/);
    expect(finished.code).toBe(0);
    await expectAnsweredOnce(faults, runId, CHILDREN);

    // The other worker took each handed-over child once, restored from its checkpoint.
    const other = [...workers].find(([id]) => id !== stopped.id)?.[1];
    other?.child.kill('SIGTERM');
    const taken = logLines((await other?.exited)?.stderr ?? '', 'task claimed');
    expect(
      taken
        .filter((line) => line['restored'] === true)
        .map((line) => line['path'])
        .sort(),
    ).toEqual([...stopped.paths].sort());
  });
});
