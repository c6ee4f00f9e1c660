/**
 * A poison task ends in the dead-letter stream instead of killing workers forever: a remote child
 * whose `bash` kills the worker process hosting it (`kill -9 $PPID`), under a small supervisor
 * that starts a new `troupe worker` whenever one dies, with `--max-deliver 2` and a short ack
 * wait. Each of the first two deliveries kills its worker; the third is not run but moved to
 * `troupe.<ns>.dead.poison`, and the child ends with an error naming the cause, which the lead
 * in the `troupe run --nats` process gets as its tool result and quotes in its final answer.
 *
 * The lead is local (in the `troupe run` process): on a worker, it would die with the poison's
 * host and be redelivered itself, and the test could not tell which task was dead-lettered.
 *
 * Pins down: nats-server 2.9 stamps some redeliveries as first deliveries once a worker died with
 * pull requests outstanding; the worker trusted that count, so it started the poison afresh on
 * every delivery and never dead-lettered it, and the run hung once the server gave up.
 */
import { describe, expect, it } from 'vitest';
import type { RunningTroupe, TroupeExit } from '../spawn-troupe.js';
import { effectLines, logLines, useFaultRig, type FaultRig } from './fault-rig.js';

const GRAPH = 'faults/poison.yaml';
// The ack wait leaves a loaded machine room for the heartbeats (every third of it): a heartbeat
// missed under load redelivers the task to the live worker, which counts that take too.
const WORKER_FLAGS = ['--max-deliver', '2', '--ack-wait', '3000'];

const startRig = useFaultRig();

/** Keeps one worker up: starts `w1`, and `w<n+1>` whenever `w<n>` dies, until `stop()`. */
function supervise(faults: FaultRig): { deaths: TroupeExit[]; current(): RunningTroupe | undefined; stop(): void; failed: Promise<never> } {
  const deaths: TroupeExit[] = [];
  let current: RunningTroupe | undefined;
  let stopped = false;
  let fail: (error: unknown) => void = () => undefined;
  const failed = new Promise<never>((_, reject) => (fail = reject));
  const keepUp = async (n: number): Promise<void> => {
    current = faults.start(['worker', GRAPH, ...faults.nats, '--id', `w${n}`, ...WORKER_FLAGS]);
    const exit = await current.exited;
    if (stopped) return;
    deaths.push(exit);
    await keepUp(n + 1);
  };
  keepUp(1).catch(fail);
  return { deaths, current: () => current, stop: () => (stopped = true), failed };
}

describe('a poison task', () => {
  it('is dead-lettered after --max-deliver deliveries, and the lead gets the error', { timeout: 120_000 }, async () => {
    const faults = await startRig();
    const supervisor = supervise(faults);
    await Promise.race([supervisor.current()?.matching('stdout', /ready/), supervisor.failed]);
    const { jsm, names } = faults.resources;

    const { run } = await faults.startRun(GRAPH);
    const finished = await Promise.race([run.exited, supervisor.failed]);
    supervisor.stop();
    expect(finished.stdout).toBe(
      `Lead saw: poison failed: the task for lead/poison#1 was delivered 2 times without finishing (each worker that took it died or was stopped); it was moved to troupe.${names.namespace}.dead.poison\n`,
    );
    expect(finished.stderr).toMatch(/\n✓ done · /);
    expect(finished.code).toBe(0);

    // Two deliveries ran the poison, and each killed its worker; the third was not run.
    expect(supervisor.deaths.map((d) => d.signal)).toEqual(['SIGKILL', 'SIGKILL']);
    expect(await effectLines(faults)).toEqual(['ran', 'ran']);
    const dead = await jsm.streams.getMessage(names.deadStream, { last_by_subj: `troupe.${names.namespace}.dead.poison` });
    expect(dead?.json()).toMatchObject({ task: { path: 'lead/poison#1', agent: 'poison' }, deliveries: 2, worker: 'w3' });

    const last = supervisor.current();
    last?.child.kill('SIGTERM');
    const exit = await last?.exited;
    expect(exit?.code).toBe(0);
    expect(logLines(exit?.stderr ?? '', 'task dead-lettered')).toMatchObject([{ path: 'lead/poison#1', deliveries: 2 }]);
  });
});
