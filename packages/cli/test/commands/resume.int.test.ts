/**
 * `troupe resume` across processes: a `troupe run` SIGKILLed while a child thinks (its side
 * effect written and checkpointed) is taken up from its runs directory by another process, which
 * finishes it without running the finished turn (nor its tool) again. One killed while the child's
 * `bash` still runs does not run that command again either: the command may have taken effect, so
 * the child gets the "interrupted" result and goes on from there. A run that ended is refused.
 */
import { mkdtempSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { INTERRUPTED_BY_RESTORE } from '@troupe/core';
import { createFileRunStore } from '@troupe/runtime';
import { describe, expect, it, vi } from 'vitest';
import { spawnTroupe, startTroupe } from '../spawn-troupe.js';

/** A runs folder and a workspace for a crash fixture, with the side effects its commands wrote to effects.txt. */
function resumeRig() {
  const runs = mkdtempSync(join(tmpdir(), 'troupe-resume-runs-'));
  const workspace = mkdtempSync(join(tmpdir(), 'troupe-resume-ws-'));
  const effects = async (): Promise<string[]> => (await readFile(join(workspace, 'effects.txt'), 'utf8').catch(() => '')).split('\n').filter(Boolean);
  return { runs, env: { RESUME_WORKSPACE: workspace }, effects, store: createFileRunStore(runs) };
}

describe('troupe resume', () => {
  it('goes on with a killed run from its checkpoints, running no finished turn again', async () => {
    const { runs, env, effects, store } = resumeRig();

    const first = startTroupe(['run', 'crash-resume.yaml', '--input', 'go', '--runs-dir', runs], { env });
    // The helper's bash turn has run and is checkpointed: it is thinking about its answer.
    const runId = await vi.waitFor(
      async () => {
        const [run] = await store.listRuns();
        expect(run).toBeDefined();
        const helper = (await store.loadSnapshots(run!.id)).find((s) => s.agentPath === 'lead/helper#1');
        expect(helper?.context.messages.some((m) => m.role === 'toolResult')).toBe(true);
        return run!.id;
      },
      { timeout: 20_000, interval: 50 },
    );
    first.child.kill('SIGKILL');
    expect((await first.exited).signal).toBe('SIGKILL');
    expect(await store.getRun(runId)).toMatchObject({ status: 'interrupted' });
    const [token] = await effects();

    const resumed = await spawnTroupe(['resume', runId, '--runs-dir', runs], { env });
    expect(resumed.code).toBe(0);
    expect(resumed.stdout.trim()).toBe(`Done. Marked ${token}`);
    expect(resumed.stderr).toMatch(new RegExp(`✓ done · .* · run ${runId}\\n`));
    expect(await effects()).toEqual([token]);
    expect(await store.getRun(runId)).toMatchObject({ status: 'done', stopReason: 'stop' });

    const again = await spawnTroupe(['resume', runId, '--runs-dir', runs]);
    expect(again.code).toBe(2);
    expect(again.stderr).toBe(`troupe: run ${runId} is done, there is nothing to go on with\n`);
  }, 60_000);

  it('does not run again a command the killed run was running: the child is told it was interrupted', async () => {
    const { runs, env, effects, store } = resumeRig();

    const first = startTroupe(['run', 'crash-mid-tool.yaml', '--input', 'go', '--runs-dir', runs], { env });
    // The command has left its mark and sleeps.
    await vi.waitFor(async () => expect(await effects()).toHaveLength(1), { timeout: 20_000, interval: 50 });
    first.child.kill('SIGKILL');
    expect((await first.exited).signal).toBe('SIGKILL');
    const [run] = await store.listRuns();

    const resumed = await spawnTroupe(['resume', run!.id, '--runs-dir', runs], { env });
    expect(resumed.stderr).toMatch(/✓ done · /);
    expect(resumed.stdout.trim()).toBe(`Done. Helper: ${INTERRUPTED_BY_RESTORE}`);
    expect(resumed.code).toBe(0);
    expect(await effects()).toHaveLength(1);
  }, 60_000);

  it('says when the run does not exist, with exit 2', async () => {
    const runs = mkdtempSync(join(tmpdir(), 'troupe-resume-runs-'));
    const missing = await spawnTroupe(['resume', 'run_nope', '--runs-dir', runs]);
    expect(missing.code).toBe(2);
    expect(missing.stderr).toBe(`troupe: no run run_nope in ${runs} (troupe runs lists them)\n`);
  });
});
