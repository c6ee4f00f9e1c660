/**
 * A distributed run outlives the `troupe run` that hosted its lead: the lead (local) has handed one
 * task to a scribe in the same process and one to a runner on a worker, and both children have
 * written their side effect and checkpointed it, when `troupe run` is SIGKILLed. `troupe resume
 * <runId> --nats` from another process restores what died with it — the lead and the scribe, from
 * their checkpoints — while the runner goes on on its worker; the lead re-attaches to both and the
 * run finishes: each side effect written once, every actor ended, the run recorded as done.
 *
 * While the process hosting the run is alive, `troupe resume` refuses (exit 2) and leaves the run
 * alone.
 */
import { describe, expect, it } from 'vitest';
import { actorRecord, effectLines, inSecondTurn, useFaultRig } from './fault-rig.js';

const GRAPH = 'faults/stranded-lead.yaml';
const CHILDREN = ['lead/scribe#1', 'lead/runner#1'];

const startRig = useFaultRig();

describe('troupe resume --nats', { timeout: 120_000 }, () => {
  it('restores the actors that died with troupe run, and leaves the worker its own', async () => {
    const faults = await startRig();
    await faults.workers(GRAPH, ['w1']);
    const { run, runId } = await faults.startRun(GRAPH);
    await inSecondTurn(faults, runId, CHILDREN);
    run.child.kill('SIGKILL');
    expect((await run.exited).signal).toBe('SIGKILL');
    const marks = await effectLines(faults);
    expect(marks).toHaveLength(2);
    expect((await faults.store.getRun(runId))?.status).toBe('running');

    const resumed = await faults.run(['resume', runId, ...faults.nats]);
    const runnerMark = marks.find((line) => line.startsWith('runner '));
    expect(resumed.stdout).toBe(`Done. Runner marked ${runnerMark}\n`);
    expect(resumed.stderr).toMatch(new RegExp(`\\n✓ done · .* · run ${runId}\\n`));
    expect(resumed.code).toBe(0);
    // Neither child ran its first turn again.
    expect(await effectLines(faults)).toEqual(marks);
    const scribeMark = marks.find((line) => line.startsWith('scribe '));
    expect(await actorRecord(faults, runId, 'lead/scribe#1')).toMatchObject({ status: 'ended', result: { text: `Scribe marked ${scribeMark}` } });
    // The runner stayed on its worker: its record was never the resuming process's.
    expect(await actorRecord(faults, runId, 'lead/runner#1')).toMatchObject({
      status: 'ended',
      fromQueue: true,
      result: { text: `Runner marked ${runnerMark}` },
    });
    expect(await faults.store.getRun(runId)).toMatchObject({ status: 'done', stopReason: 'stop' });

    const again = await faults.run(['resume', runId, ...faults.nats]);
    expect(again.code).toBe(2);
    expect(again.stderr).toBe(`troupe: run ${runId} is done, there is nothing to go on with\n`);
  });

  it('refuses a run whose process is alive, and leaves it be', async () => {
    const faults = await startRig();
    await faults.workers(GRAPH, ['w1']);
    const { run, runId } = await faults.startRun(GRAPH);
    await inSecondTurn(faults, runId, CHILDREN);

    const refused = await faults.run(['resume', runId, ...faults.nats]);
    expect(refused.code).toBe(2);
    expect(refused.stderr).toMatch(
      new RegExp(
        `^troupe: run ${runId} is still hosted by a live process \\(lead on run-\\d+, lead/scribe#1 on run-\\d+\\); troupe watch ${runId} --nats \\S+ --namespace \\S+ follows it\\n$`,
      ),
    );
    const ended = await run.exited;
    expect(ended.stdout).toMatch(/^Done\. Runner marked runner /);
    expect(ended.code).toBe(0);
    expect(await effectLines(faults)).toHaveLength(2);
  });
});
