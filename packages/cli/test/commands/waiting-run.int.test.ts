/**
 * Durable human-in-the-loop through the real command, across processes: `troupe run` on an agent
 * that needs an approval exits 3 leaving the run waiting in its store; `troupe runs` and
 * `troupe show` (new processes) see it waiting and for what; `troupe approve` (another process)
 * resumes it from its snapshots and finishes it; a second approval is refused.
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { spawnTroupe } from '../spawn-troupe.js';

describe('a waiting run, answered from another process', () => {
  it('waits, is listed and shown, and finishes after troupe approve', async () => {
    const runs = mkdtempSync(join(tmpdir(), 'troupe-waiting-'));
    const started = await spawnTroupe(['run', 'asks.yaml', '--input', 'echo ping', '--runs-dir', runs]);
    expect(started.code).toBe(3);
    const match = /troupe approve (run_\w+) (call_1_1) allow_once/.exec(started.stderr);
    expect(match).not.toBeNull();
    const runId = match?.[1] ?? '';

    const listed = await spawnTroupe(['runs', '--runs-dir', runs]);
    expect(listed.code).toBe(0);
    expect(listed.stdout).toMatch(new RegExp(`${runId}\\s+waiting\\s+careful`));
    const shown = await spawnTroupe(['show', runId, '--runs-dir', runs]);
    expect(shown.stdout).toContain('waiting: careful for approval of echo (call call_1_1)');

    const approved = await spawnTroupe(['approve', runId, 'call_1_1', 'allow_once', '--runs-dir', runs]);
    expect(approved.stderr).toMatch(/run run_\w+ · done · stop stop · turns 2/);
    expect(approved.stdout).toBe('Approved and echoed: ping\n');
    expect(approved.code).toBe(0);

    const again = await spawnTroupe(['approve', runId, 'call_1_1', 'allow_once', '--runs-dir', runs]);
    expect(again.code).toBe(2);
    expect(again.stderr).toBe(`troupe: run ${runId} is done, not waiting for an answer\n`);
  }, 60_000);
});
