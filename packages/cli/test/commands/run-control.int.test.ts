/**
 * Controlling distributed runs from other processes, through the real commands on a real
 * nats-server, each graph with its own `troupe worker`: Ctrl-C on `troupe run --nats` detaches
 * instead of aborting (exit 130, it says how to follow and cancel the run) and the local lead is
 * handed over to the worker, so `troupe watch` sees the run finish; a run whose remote child asks
 * the user is left waiting (exit 3) and `troupe reply --nats` from another process wakes the child
 * on the worker and follows the run to its end; `troupe abort` ends a run whose remote child
 * sleeps, and the run is recorded as aborted, and one whose child no worker has taken yet (shown
 * as queued, with the command that starts a worker), noting the abort for whoever takes it.
 */
import { startNatsServer, type NatsServerProcess } from '@troupe/nats/testing';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { spawnTroupe, startTroupe, type RunningTroupe } from '../spawn-troupe.js';

let server: NatsServerProcess;
let worker: RunningTroupe | undefined;
let namespaces = 0;

beforeAll(async () => {
  server = await startNatsServer();
});
afterEach(async () => {
  worker?.child.kill('SIGTERM');
  await worker?.exited;
  worker = undefined;
});
afterAll(async () => {
  await server?.stop();
});

/** Starts a worker for `graph` in a fresh namespace; resolves with the flags that reach it. */
async function workerFor(graph: string): Promise<string[]> {
  const nats = ['--nats', server.url, '--namespace', `ctl${process.pid}_${++namespaces}`];
  worker = startTroupe(['worker', graph, ...nats]);
  await worker.matching('stdout', /ready/);
  return nats;
}

describe('distributed runs controlled from other processes', { timeout: 60_000 }, () => {
  it('detaches on Ctrl-C, hands the lead over, and the run finishes on the worker', async () => {
    const nats = await workerFor('nats-napper.yaml');
    const run = startTroupe(['run', 'nats-napper.yaml', '--input', 'go', ...nats]);
    await run.matching('stderr', /\[lead\/napper#1\] thinking/);
    run.child.kill('SIGINT');
    const detached = await run.exited;
    expect(detached.code).toBe(130);
    const runId = /run (run_\w+) goes on/.exec(detached.stderr)?.[1] ?? '';
    const flags = nats.join(' ');
    expect(detached.stderr).toContain(`run ${runId} goes on; follow it with: troupe watch ${runId} ${flags}\ncancel it with: troupe abort ${runId} ${flags}\n`);
    expect(detached.stderr).not.toContain('aborted');

    const watched = await spawnTroupe(['watch', runId, ...nats]);
    expect(watched.stdout).toBe('Lead heard: Rested.\n');
    expect(watched.stderr).toMatch(/\n✓ done · 2 turns · /);
    expect(watched.code).toBe(0);
  });

  it('leaves a run whose remote child asks waiting, and finishes it after troupe reply --nats', async () => {
    const nats = await workerFor('nats-asker.yaml');
    const started = await spawnTroupe(['run', 'nats-asker.yaml', '--input', 'go', ...nats]);
    expect(started.code).toBe(3);
    const match = /troupe reply (run_\w+) lead\/asker#1 "<answer>" --nats /.exec(started.stderr);
    expect(match).not.toBeNull();
    const runId = match?.[1] ?? '';

    const shown = await spawnTroupe(['show', runId, ...nats]);
    expect(shown.stdout).toContain('waiting: lead/asker#1 for an answer to "Which city?"');

    const wrong = await spawnTroupe(['approve', runId, 'call_9', 'allow_once', ...nats]);
    expect(wrong.code).toBe(2);
    expect(wrong.stderr).toBe(`troupe approve: no actor of run ${runId} waits for a decision on call_9; waiting: lead/asker#1 (question: Which city?)\n`);

    const replied = await spawnTroupe(['reply', runId, 'Lisbon', ...nats]);
    expect(replied.stdout).toBe('Lead heard: City Lisbon\n');
    expect(replied.stderr).toMatch(/\n✓ done · /);
    expect(replied.code).toBe(0);
  });

  it('aborts a run whose remote child sleeps', async () => {
    const nats = await workerFor('nats-sleeper.yaml');
    const run = startTroupe(['run', 'nats-sleeper.yaml', '--input', 'go', ...nats]);
    await run.matching('stderr', /\[lead\/sleeper#1\] thinking/);
    const listed = await spawnTroupe(['runs', '--json', ...nats]);
    const runId = (JSON.parse(listed.stdout.trim()) as { id: string }).id;

    const aborted = await spawnTroupe(['abort', runId, ...nats]);
    expect(aborted.stdout).toBe(`run ${runId} aborted\n`);
    expect(aborted.code).toBe(0);
    const ended = await run.exited;
    expect(ended.stderr).toMatch(/\n■ aborted · /);

    const runs = await spawnTroupe(['runs', ...nats]);
    expect(runs.stdout).toMatch(new RegExp(`\\n${runId}\\s+aborted\\s+lead\\s`));
  });

  it('aborts one remote actor, and its lead takes the abort as its result and finishes', async () => {
    const nats = await workerFor('nats-sleeper.yaml');
    const run = startTroupe(['run', 'nats-sleeper.yaml', '--input', 'go', ...nats]);
    await run.matching('stderr', /\[lead\/sleeper#1\] thinking/);
    const listed = await spawnTroupe(['runs', '--json', ...nats]);
    const runId = (JSON.parse(listed.stdout.trim()) as { id: string }).id;

    const nobody = await spawnTroupe(['abort', runId, 'lead/nobody#1', ...nats]);
    expect(nobody.code).toBe(2);
    expect(nobody.stderr).toMatch(/^troupe abort: .*lead\/nobody#1.*; running: lead, lead\/sleeper#1\n$/);

    const aborted = await spawnTroupe(['abort', runId, 'lead/sleeper#1', ...nats]);
    expect(aborted.stdout).toBe(`aborted lead/sleeper#1 of run ${runId}\n`);
    expect(aborted.code).toBe(0);
    const ended = await run.exited;
    expect(ended.code).toBe(0);
    expect(ended.stdout).toMatch(/^Lead heard: /);
    expect(ended.stderr).toMatch(/\n✓ done · /);
  });

  it('shows a child no worker has taken as queued, and aborts the run before one does', async () => {
    // No worker: the lead's remote child waits on the task queue, with no actor record yet.
    const nats = ['--nats', server.url, '--namespace', `ctl${process.pid}_${++namespaces}`];
    const run = startTroupe(['run', 'nats-sleeper.yaml', '--input', 'go', ...nats]);
    await run.matching('stderr', /\[lead\] tool delegate_to_sleeper/);
    const listed = await spawnTroupe(['runs', '--json', ...nats]);
    const runId = (JSON.parse(listed.stdout.trim()) as { id: string }).id;
    const shown = await spawnTroupe(['show', runId, ...nats]);
    expect(shown.stdout).toContain(` · queued — no live worker hosts "sleeper"; start one: troupe worker nats-sleeper.yaml ${nats.join(' ')}\n`);

    const aborted = await spawnTroupe(['abort', runId, ...nats]);
    expect(aborted.stdout).toBe(`run ${runId} aborted\n`);
    expect((await run.exited).stderr).toMatch(/\n■ aborted · /);
    // The abort waits in a record made for the child, for the worker that takes it one day.
    const after = await spawnTroupe(['show', runId, ...nats]);
    expect(after.stdout).toMatch(/\n {2}sleeper#1 .*· queued, abort requested\n/);
  });
});
