/**
 * The distributed run a newcomer starts before any worker, through the real commands on a real
 * nats-server: `troupe workers` says no worker runs and how to start one (exit 0, no stack trace);
 * `troupe run --nats` of a team whose specialists run on workers says, as its delegations'
 * progress, that no live worker hosts them and which command starts one; `troupe show` lists them
 * queued with the same command; once `troupe worker` starts, the run finishes by itself, and the
 * worker logs each task it took and how it ended (run id, path, agent, duration, outcome) at info.
 */
import { startNatsServer, type NatsServerProcess } from '@troupe/nats/testing';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { logLines } from '../faults/fault-rig.js';
import { spawnTroupe, startTroupe, type RunningTroupe } from '../spawn-troupe.js';

let server: NatsServerProcess;
let namespaces = 0;
/** The processes a test started, killed after it whatever happened. */
const started: RunningTroupe[] = [];

beforeAll(async () => {
  server = await startNatsServer();
});
afterEach(async () => {
  for (const troupe of started.splice(0)) {
    if (troupe.child.exitCode === null && troupe.child.signalCode === null) troupe.child.kill('SIGKILL');
    await troupe.exited.catch(() => undefined);
  }
});
afterAll(async () => {
  await server?.stop();
});

function freshNamespace(): string[] {
  return ['--nats', server.url, '--namespace', `wait${process.pid}_${++namespaces}`];
}

describe('distributed runs with no worker yet', { timeout: 60_000 }, () => {
  it('troupe workers says none runs and how to start one', async () => {
    const nats = freshNamespace();
    const listed = await spawnTroupe(['workers', ...nats]);
    expect(listed.stderr).toBe(`no workers in namespace "${nats[3]}" on ${server.url}; start one with: troupe worker <graph.yaml> ${nats.join(' ')}\n`);
    expect(listed.stdout).toBe('');
    expect(listed.code).toBe(0);

    const json = await spawnTroupe(['workers', '--json', ...nats]);
    expect(json.stdout).toBe('');
    expect(json.code).toBe(0);
  });

  it('says the specialists wait for a worker, shows them queued, and finishes once one starts', async () => {
    const nats = freshNamespace();
    const hint = `troupe worker nats-team.yaml ${nats.join(' ')}`;
    const run = startTroupe(['run', 'nats-team.yaml', '--input', 'Should we?', '--json', ...nats]);
    started.push(run);
    const early = await run.matching('stdout', /waiting for a worker to take lead\/critic#1/);
    const progress = early
      .split('\n')
      .filter((line) => line.includes('"tool_update"'))
      .map((line) => JSON.parse(line) as { agentPath: string; toolName: string; progress: string; runId: string });
    expect(progress).toContainEqual(
      expect.objectContaining({
        agentPath: 'lead',
        toolName: 'delegate_to_researcher',
        progress: `waiting for a worker to take lead/researcher#1: no live worker hosts "researcher"; start one: ${hint}`,
      }),
    );
    const runId = progress[0]?.runId ?? '';

    const shown = await spawnTroupe(['show', runId, ...nats]);
    expect(shown.stdout).toContain(` · queued — no live worker hosts "researcher"; start one: ${hint}\n`);
    expect(shown.stdout).toContain(` · queued — no live worker hosts "critic"; start one: ${hint}\n`);

    const worker = startTroupe(['worker', 'nats-team.yaml', ...nats, '--id', 'late']);
    started.push(worker);
    const ended = await run.exited;
    expect(ended.code).toBe(0);
    expect(ended.stdout).toContain('"type":"agent_end"');
    expect(ended.stderr).toMatch(/^✓ done · .* · run run_\w+$/m);
    worker.child.kill('SIGTERM');
    const logs = (await worker.exited).stderr;

    const taken = logLines(logs, 'task taken');
    expect(taken.map((line) => line['path']).sort()).toEqual(['lead/critic#1', 'lead/researcher#1']);
    for (const line of taken) expect(line).toMatchObject({ level: 30, worker: 'late', runId, agent: expect.any(String) });
    const done = logLines(logs, 'task ended');
    expect(done.map((line) => line['path']).sort()).toEqual(['lead/critic#1', 'lead/researcher#1']);
    for (const line of done) {
      expect(line).toMatchObject({ level: 30, worker: 'late', runId, outcome: 'done', stopReason: 'stop', durationMs: expect.any(Number) });
      expect(line['agent']).toBe(String(line['path']).slice('lead/'.length, -'#1'.length));
    }
  });
});
