/**
 * `troupe abort` and `troupe steer` on runs of this machine's runs directory, with real `troupe`
 * processes talking over the run's real control socket: a steering message reaches the actor of a
 * running `troupe run` (it is in its conversation, and the run goes on to its end), and so does a
 * follow-up (`--follow-up`, taken once the actor has answered); `troupe abort`
 * ends a running run, waits for its end and says so, while the run exits 130 and its socket is
 * gone; `troupe abort <runId> <path>` ends one actor and the run goes on; a run left waiting, which no process runs, is marked aborted in the store; and a run that
 * has ended, is waiting, or does not exist gets a clear answer instead.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { textOf, type RunId } from '@troupe/core';
import { createFileRunStore, runDirOf, type RunStore } from '@troupe/runtime';
import { describe, expect, it, vi } from 'vitest';
import { spawnTroupe, startTroupe } from '../spawn-troupe.js';
import { steerToTheEnd } from './steered-run.js';

/** Resolves with the id of the one run of `store` once its process listens on its control socket and `ready` holds. */
async function listening(store: RunStore, runs: string, ready: (id: RunId) => Promise<boolean> = async () => true): Promise<RunId> {
  return vi.waitFor(
    async () => {
      const [run] = await store.listRuns();
      expect(run).toBeDefined();
      expect(existsSync(join(runDirOf(runs, run!.id), 'control.sock'))).toBe(true);
      expect(await ready(run!.id)).toBe(true);
      return run!.id;
    },
    { timeout: 20_000, interval: 50 },
  );
}

describe('troupe abort and troupe steer on local runs', { timeout: 60_000 }, () => {
  it('steers the actor of a running run', async () => {
    const runs = mkdtempSync(join(tmpdir(), 'troupe-steer-runs-'));
    const workspace = mkdtempSync(join(tmpdir(), 'troupe-steer-ws-'));
    execFileSync('mkfifo', [join(workspace, 'gate')]);
    const store = createFileRunStore(runs);
    const run = startTroupe(['run', 'steered.yaml', '--input', 'go', '--runs-dir', runs], { env: { STEER_WORKSPACE: workspace } });
    // Its bash call blocks on the FIFO.
    const id = await listening(store, runs, async (runId) => (await store.readEvents(runId)).some((event) => event.type === 'tool_start'));

    await steerToTheEnd(run, id, workspace, ['--runs-dir', runs]);
    const [worker] = await store.loadSnapshots(id);
    expect(worker?.context.messages.map((m) => `${m.role}${m.role === 'user' ? ` ${textOf(m)}` : ''}`)).toEqual([
      'user go',
      'assistant',
      'toolResult',
      'user Wrap up.',
      'assistant',
    ]);
  });

  it('queues a follow-up for the actor of a running run (--follow-up), which it takes once it has answered', async () => {
    const runs = mkdtempSync(join(tmpdir(), 'troupe-steer-runs-'));
    const workspace = mkdtempSync(join(tmpdir(), 'troupe-steer-ws-'));
    execFileSync('mkfifo', [join(workspace, 'gate')]);
    const store = createFileRunStore(runs);
    const run = startTroupe(['run', 'followed-up.yaml', '--input', 'go', '--runs-dir', runs], { env: { STEER_WORKSPACE: workspace } });
    const id = await listening(store, runs, async (runId) => (await store.readEvents(runId)).some((event) => event.type === 'tool_start'));

    const followed = await spawnTroupe(['steer', id, 'worker', 'And then?', '--follow-up', '--runs-dir', runs]);
    expect(followed.stdout).toBe(`followed up worker of run ${id}\n`);
    expect(followed.code).toBe(0);
    writeFileSync(join(workspace, 'gate'), 'open\n');
    const ended = await run.exited;
    // It printed both answers: the one it gave, then the follow-up's.
    expect(ended.stdout).toBe('Gate said: open\nFollowed up.\n');
    expect(ended.code).toBe(0);
    const [worker] = await store.loadSnapshots(id);
    expect(worker?.context.messages.map((m) => `${m.role}${m.role === 'toolResult' ? '' : ` ${textOf(m)}`}`)).toEqual([
      'user go',
      'assistant ',
      'toolResult',
      'assistant Gate said: open',
      'user And then?',
      'assistant Followed up.',
    ]);
  });

  it('aborts a running run and waits for its end', async () => {
    const runs = mkdtempSync(join(tmpdir(), 'troupe-abort-runs-'));
    const store = createFileRunStore(runs);
    const run = startTroupe(['run', 'slow.yaml', '--input', 'go', '--runs-dir', runs]);
    const id = await listening(store, runs);
    const aborted = await spawnTroupe(['abort', id, '--runs-dir', runs]);
    expect(aborted.stdout).toBe(`run ${id} aborted\n`);
    expect(aborted.code).toBe(0);
    expect((await run.exited).code).toBe(130);
    expect(await store.getRun(id)).toMatchObject({ status: 'aborted', stopReason: 'aborted' });
    expect(existsSync(join(runDirOf(runs, id), 'control.sock'))).toBe(false);

    const again = await spawnTroupe(['abort', id, '--runs-dir', runs]);
    expect(again.stdout).toBe(`run ${id} has already ended (aborted)\n`);
    expect(again.code).toBe(0);
  });

  it('aborts one actor of a running run, whose parent takes the abort as its result and goes on', async () => {
    const runs = mkdtempSync(join(tmpdir(), 'troupe-abort-runs-'));
    const store = createFileRunStore(runs);
    const run = startTroupe(['run', 'sleeper-team.yaml', '--input', 'go', '--runs-dir', runs]);
    const id = await listening(store, runs, async (runId) =>
      (await store.readEvents(runId)).some((event) => event.type === 'agent_start' && event.agentPath === 'lead/sleeper#1'),
    );

    const nobody = await spawnTroupe(['abort', id, 'lead/nobody#1', '--runs-dir', runs]);
    expect(nobody.code).toBe(2);
    expect(nobody.stderr).toBe(`troupe abort: no actor lead/nobody#1 in run ${id}; running: lead, lead/sleeper#1\n`);

    const aborted = await spawnTroupe(['abort', id, 'lead/sleeper#1', '--runs-dir', runs]);
    expect(aborted.stdout).toBe(`aborted lead/sleeper#1 of run ${id}\n`);
    expect(aborted.code).toBe(0);
    const ended = await run.exited;
    expect(ended.code).toBe(0);
    expect(ended.stdout).toMatch(/^Lead heard: /);
    expect(await store.getRun(id)).toMatchObject({ status: 'done' });
    const events = await store.readEvents(id);
    expect(events).toContainEqual(
      expect.objectContaining({ type: 'agent_end', agentPath: 'lead/sleeper#1', result: expect.objectContaining({ stopReason: 'aborted' }) }),
    );
  });

  it('marks a waiting run that no process runs aborted', async () => {
    const runs = mkdtempSync(join(tmpdir(), 'troupe-abort-runs-'));
    const left = await spawnTroupe(['run', 'asks.yaml', '--input', 'go', '--runs-dir', runs]);
    expect(left.code).toBe(3);
    const [run] = await createFileRunStore(runs).listRuns();
    const id = run?.id as RunId;

    const steered = await spawnTroupe(['steer', id, 'Hurry.', '--runs-dir', runs]);
    expect(steered.code).toBe(2);
    expect(steered.stderr).toBe(
      `troupe steer: run ${id} is waiting for an answer and no process is running it: troupe show ${id} --runs-dir ${runs} says what it waits for\n`,
    );

    const one = await spawnTroupe(['abort', id, 'asker/helper#1', '--runs-dir', runs]);
    expect(one.code).toBe(2);
    expect(one.stderr).toBe(
      `troupe abort: run ${id} is waiting for an answer and no process is running it: troupe abort ${id} --runs-dir ${runs} aborts all of it\n`,
    );

    const aborted = await spawnTroupe(['abort', id, '--runs-dir', runs]);
    expect(aborted.stdout).toBe(`run ${id} aborted (it was waiting, and no process was running it)\n`);
    expect(aborted.code).toBe(0);
    expect(await createFileRunStore(runs).getRun(id)).toMatchObject({ status: 'aborted', stopReason: 'aborted', endedAt: expect.any(Number) });
    const approve = await spawnTroupe(['approve', id, 'call_1_1', 'allow_once', '--runs-dir', runs]);
    expect(approve.code).toBe(2);
  });

  it('says when the run does not exist', async () => {
    const runs = mkdtempSync(join(tmpdir(), 'troupe-abort-runs-'));
    const missing = await spawnTroupe(['abort', 'run_nope', '--runs-dir', runs]);
    expect(missing.code).toBe(2);
    expect(missing.stderr).toBe(`troupe abort: no run run_nope in ${runs} (troupe runs --runs-dir ${runs} lists them)\n`);
    const steer = await spawnTroupe(['steer', 'run_nope', 'Hi.', '--runs-dir', runs]);
    expect(steer.code).toBe(2);
    expect(steer.stderr).toBe(`troupe steer: no run run_nope in ${runs} (troupe runs --runs-dir ${runs} lists them)\n`);
  });
});
