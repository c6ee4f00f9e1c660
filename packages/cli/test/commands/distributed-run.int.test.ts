/**
 * A distributed run through the real commands, each a child process, on a real nats-server:
 * `troupe worker` hosts a team graph's agents and says when it is ready; `troupe run --nats` runs
 * the lead in its own process and the two remote specialists on the worker, printing the same
 * answer as a run without NATS; `troupe workers` lists the worker with the tasks it took;
 * `troupe runs --nats` lists the run as done; `troupe show --nats` shows its actors; `troupe watch`
 * replays it from the start and exits 0.
 */
import { startNatsServer, type NatsServerProcess } from '@troupe/nats/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { spawnTroupe, startTroupe, type RunningTroupe } from '../spawn-troupe.js';

const NAMESPACE = `team${process.pid}`;
const ANSWER = 'Asking the team.\nDecision made. Last word: The risks are small.\n';

let server: NatsServerProcess;
let worker: RunningTroupe;
let ready = '';
let nats: string[] = [];

beforeAll(async () => {
  server = await startNatsServer();
  nats = ['--nats', server.url, '--namespace', NAMESPACE];
  worker = startTroupe(['worker', 'nats-team.yaml', ...nats, '--id', 'w1']);
  ready = await worker.matching('stdout', /ready/);
}, 30_000);

afterAll(async () => {
  worker?.child.kill('SIGTERM');
  await worker?.exited;
  await server?.stop();
});

describe('troupe run --nats with a worker', { timeout: 60_000 }, () => {
  let runId = '';

  it('runs the lead here and the specialists on the worker, with the same output as without NATS', async () => {
    expect(ready).toMatch(/^worker w1 ready: lead,researcher,critic \(graph [0-9a-f]{16}\)\n$/);
    const result = await spawnTroupe(['run', 'nats-team.yaml', '--input', 'Should we?', ...nats]);
    expect(result.stdout).toBe(ANSWER);
    expect(result.stderr).toContain('[lead/researcher#1] ended: stop');
    expect(result.stderr).toContain('[lead/critic#1] ended: stop');
    expect(result.stderr).toMatch(/\n✓ done · 2 turns · 3 actors · \d+ tokens · \$0\.0000 · \d+\.\d\ds · run run_\w+\n$/);
    expect(result.code).toBe(0);
    runId = / · run (run_\w+)\n/.exec(result.stderr)?.[1] ?? '';
    // The worker stays up for the next runs.
    expect(worker.child.exitCode).toBeNull();
  });

  it('lists the worker and what it did', async () => {
    const listed = await spawnTroupe(['workers', ...nats]);
    expect(listed.code).toBe(0);
    expect(listed.stdout).toMatch(/^WORKER\s+AGENTS\s+RUNNING\s+TAKEN\s+ENDED\s+PARKED\s+DEAD\s+GRAPH\n/);
    expect(listed.stdout).toMatch(/\nw1\s+lead,researcher,critic\s+0\/16\s+2\s+2\s+0\s+0\s+[0-9a-f]{16}\n$/);
  });

  it('lists the run as done, shows its actors, and replays it with troupe watch', async () => {
    expect(runId).not.toBe('');
    const runs = await spawnTroupe(['runs', ...nats]);
    expect(runs.code).toBe(0);
    expect(runs.stdout).toMatch(new RegExp(`\\n${runId}\\s+done\\s+lead\\s`));

    const shown = await spawnTroupe(['show', runId, ...nats]);
    expect(shown.code).toBe(0);
    expect(shown.stdout).toMatch(/\nlead {2}done \(stop\) · turns 2 · /);
    expect(shown.stdout).toMatch(/\n {2}researcher#1 {2}done \(stop\) · turns 1 · /);

    const watched = await spawnTroupe(['watch', runId, ...nats]);
    expect(watched.stdout).toBe(ANSWER);
    expect(watched.stderr).toMatch(/^\[lead\] thinking\n/);
    expect(watched.stderr).toMatch(new RegExp(`\\n✓ done · 2 turns · 3 actors · \\d+ tokens · .* · run ${runId}\\n`));
    expect(watched.code).toBe(0);
  });

  it('says when the run does not exist, with exit 2', async () => {
    const watched = await spawnTroupe(['watch', 'run_nosuchrun', ...nats]);
    expect(watched.code).toBe(2);
    expect(watched.stderr).toBe(
      `troupe watch: no run run_nosuchrun in namespace "${NAMESPACE}" on NATS at ${server.url} (troupe runs --nats ${server.url} --namespace ${NAMESPACE} lists them)\n`,
    );
  });
});
