/**
 * Durable human-in-the-loop through the real command, across processes: `troupe run` on an agent
 * that needs an approval exits 3 leaving the run waiting in its store; `troupe runs` and
 * `troupe show` (new processes) see it waiting and for what, with the same token count; `troupe approve` (another process)
 * resumes it from its snapshots and finishes it; a second approval is refused. A pipeline whose
 * step asks the user is finished the same way by `troupe reply`, without running its ended steps
 * again. (Regression: `troupe reply` without a terminal used to exit 3, "waiting", when an event
 * of the answer being taken came before the one ending the wait.)
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseRunId } from '@troupe/core';
import { createFileRunStore } from '@troupe/runtime';
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
    // Regression: runs listed 0 tokens for a run that had not ended, while show summed its events.
    const tokens = /total: tokens (\d+)/.exec(shown.stdout)?.[1];
    expect(Number(tokens)).toBeGreaterThan(0);
    expect(listed.stdout).toMatch(new RegExp(`${runId}\\s+waiting\\s+careful\\s+\\S+ \\S+\\s+-\\s+${tokens}\\s`));

    const approved = await spawnTroupe(['approve', runId, 'call_1_1', 'allow_once', '--runs-dir', runs]);
    expect(approved.stderr).toMatch(/✓ done · 2 turns/);
    expect(approved.stdout).toBe('Approved and echoed: ping\n');
    expect(approved.code).toBe(0);

    const again = await spawnTroupe(['approve', runId, 'call_1_1', 'allow_once', '--runs-dir', runs]);
    expect(again.code).toBe(2);
    expect(again.stderr).toBe(`troupe: run ${runId} is done, not waiting for an answer\n`);
  }, 60_000);

  it('finishes a waiting pipeline after troupe reply, without running its ended steps again', async () => {
    const runs = mkdtempSync(join(tmpdir(), 'troupe-waiting-'));
    const started = await spawnTroupe(['run', 'asks-pipeline.yaml', '--input', 'cats', '--runs-dir', runs]);
    expect(started.code).toBe(3);
    const match = /troupe reply (run_\w+) brief\/draft "<answer>"/.exec(started.stderr);
    expect(match).not.toBeNull();
    const runId = match?.[1] ?? '';

    const replied = await spawnTroupe(['reply', runId, 'brief/draft', 'formal', '--runs-dir', runs]);
    expect(replied.stderr).toMatch(/✓ done/);
    expect(replied.stdout).toBe('A formal draft\n');
    expect(replied.code).toBe(0);

    // The outline step ended in the first process: this one took its recorded output and showed no progress of it.
    expect(replied.stderr).toContain('[brief/draft] ended: stop');
    expect(replied.stderr).not.toContain('brief/outline');
    const children = await createFileRunStore(runs).children(parseRunId(runId));
    expect(children.map((c) => [c.path, c.agent, c.task, c.outcome?.text])).toEqual([
      ['brief/outline', 'planner', 'Outline cats', 'intro and body'],
      ['brief/draft', 'writer', 'Write intro and body', 'A formal draft'],
    ]);
  }, 60_000);
});
