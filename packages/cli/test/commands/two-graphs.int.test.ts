/**
 * Two graphs with agents of the same names (nats-team.yaml and nats-team-b.yaml: lead, researcher,
 * critic) share one namespace on a real nats-server, each with its own `troupe worker`, and run at
 * once: each run's specialists are taken by its own graph's worker and it prints its own answer
 * (regression: a task of one graph was taken by the other graph's worker and the run failed with
 * `graph_mismatch` although the right worker was up). `troupe workers` lists both, each with its
 * graph.
 */
import { startNatsServer, type NatsServerProcess } from '@troupe/nats/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { spawnTroupe, startTroupe, type RunningTroupe } from '../spawn-troupe.js';

let server: NatsServerProcess;
let workers: RunningTroupe[] = [];
let nats: string[] = [];

beforeAll(async () => {
  server = await startNatsServer();
  nats = ['--nats', server.url, '--namespace', `graphs${process.pid}`];
  workers = [startTroupe(['worker', 'nats-team.yaml', ...nats, '--id', 'wa']), startTroupe(['worker', 'nats-team-b.yaml', ...nats, '--id', 'wb'])];
  await Promise.all(workers.map((worker) => worker.matching('stdout', /ready/)));
}, 30_000);

afterAll(async () => {
  for (const worker of workers) worker.child.kill('SIGTERM');
  await Promise.all(workers.map((worker) => worker.exited));
  await server?.stop();
});

describe('two graphs with agents of the same names on one namespace', { timeout: 60_000 }, () => {
  it("runs both at once, each on its own graph's worker", async () => {
    const runs = await Promise.all(
      [1, 2].flatMap(() => [
        spawnTroupe(['run', 'nats-team.yaml', '--input', 'A?', ...nats]),
        spawnTroupe(['run', 'nats-team-b.yaml', '--input', 'B?', ...nats]),
      ]),
    );
    for (const [index, run] of runs.entries()) {
      expect(run.stdout).toBe(index % 2 === 0 ? 'Asking the team.\nDecision made. Last word: The risks are small.\n' : 'Team B heard: B risks.\n');
      expect(run.stderr).not.toContain('graph_mismatch');
      expect(run.code).toBe(0);
    }

    const listed = await spawnTroupe(['workers', '--json', ...nats]);
    const loads = listed.stdout
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as { id: string; graph: string; taken: number; ended: number });
    expect(loads.map(({ id, taken, ended }) => ({ id, taken, ended }))).toEqual([
      { id: 'wa', taken: 4, ended: 4 },
      { id: 'wb', taken: 4, ended: 4 },
    ]);
    expect(loads[0]?.graph).not.toBe(loads[1]?.graph);
  });
});
