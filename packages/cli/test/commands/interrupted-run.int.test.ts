/**
 * A `troupe run` SIGKILLed while its bash tool runs `sleep 1000` (real processes throughout):
 * `troupe runs` and `troupe show` list the run as `interrupted` (not `running` forever), with the
 * same token count, and say that `troupe resume` goes on with it; `troupe resume` first ends the
 * process group the killed process left running, and finishes the run without running the bash
 * call again (it may have taken effect: the agent is told it was interrupted); `troupe abort` of
 * another such run ends its leftover group too and marks it aborted.
 */
import { mkdtempSync, readdirSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { INTERRUPTED_BY_RESTORE, type RunId } from '@troupe/core';
import { createFileRunStore, isGroupAlive, runDirOf } from '@troupe/runtime';
import { describe, expect, it, vi } from 'vitest';
import { spawnTroupe, startTroupe } from '../spawn-troupe.js';

/**
 * Starts leftover.yaml, waits until its bash command runs and its process group is recorded in
 * the run's folder, SIGKILLs `troupe run`, and resolves with the run and the group left running.
 */
async function killedMidTool(): Promise<{ runs: string; env: Record<string, string>; id: RunId; pgid: number }> {
  const runs = mkdtempSync(join(tmpdir(), 'troupe-killed-runs-'));
  const workspace = mkdtempSync(join(tmpdir(), 'troupe-killed-ws-'));
  const env = { LEFTOVER_WORKSPACE: workspace };
  const store = createFileRunStore(runs);
  const run = startTroupe(['run', 'leftover.yaml', '--input', 'go', '--runs-dir', runs], { env });
  const { id, pgid } = await vi.waitFor(
    async () => {
      const [record] = await store.listRuns();
      // Its first turn's usage is in its record.
      expect(record?.usage?.totalTokens).toBeGreaterThan(0);
      const written = Number((await readFile(join(workspace, 'pgid'), 'utf8')).trim());
      expect(readdirSync(join(runDirOf(runs, record!.id), 'processes'))).toEqual([`${written}.json`]);
      return { id: record!.id, pgid: written };
    },
    { timeout: 20_000, interval: 50 },
  );
  run.child.kill('SIGKILL');
  expect((await run.exited).signal).toBe('SIGKILL');
  expect(isGroupAlive(pgid)).toBe(true);
  return { runs, env, id, pgid };
}

describe('a run whose troupe process was killed', { timeout: 60_000 }, () => {
  it('shows as interrupted, and troupe resume ends its leftover tool processes before going on', async () => {
    const { runs, env, id, pgid } = await killedMidTool();

    const listed = await spawnTroupe(['runs', '--runs-dir', runs]);
    const row = listed.stdout.split('\n').find((line) => line.startsWith(id));
    expect(row).toMatch(new RegExp(`^${id}\\s+interrupted\\s+worker\\s`));
    expect(listed.stderr).toBe(`an interrupted run's process was killed: troupe resume <run> --runs-dir ${runs} goes on with it\n`);
    const shown = await spawnTroupe(['show', id, '--runs-dir', runs]);
    expect(shown.stdout).toContain(`run ${id} · interrupted · entry worker`);
    expect(shown.stdout).toContain(
      `interrupted: the process running it was killed; troupe resume ${id} --runs-dir ${runs} goes on from its last checkpoints\n`,
    );
    // One number in both: the tokens of the turn that started the tool.
    const tokens = /total: tokens (\d+)/.exec(shown.stdout)?.[1];
    expect(Number(tokens)).toBeGreaterThan(0);
    expect(row?.split(/\s+/)[6]).toBe(tokens);

    const resumed = await spawnTroupe(['resume', id, '--runs-dir', runs], { env });
    expect(resumed.stderr).toContain(`troupe: ended the tool processes the killed process left running (process group ${pgid})\n`);
    expect(resumed.stdout).toBe(`Job says: ${INTERRUPTED_BY_RESTORE}\n`);
    expect(resumed.code).toBe(0);
    expect(isGroupAlive(pgid)).toBe(false);
    expect(await createFileRunStore(runs).getRun(id)).toMatchObject({ status: 'done' });
  });

  it('is marked aborted by troupe abort, which ends its leftover tool processes', async () => {
    const { runs, id, pgid } = await killedMidTool();
    const aborted = await spawnTroupe(['abort', id, '--runs-dir', runs]);
    expect(aborted.stdout).toBe(`run ${id} aborted (its process had been killed; ended the tool processes it left running (process group ${pgid}))\n`);
    expect(aborted.code).toBe(0);
    expect(isGroupAlive(pgid)).toBe(false);
    expect(await createFileRunStore(runs).getRun(id)).toMatchObject({ status: 'aborted' });
  });
});
