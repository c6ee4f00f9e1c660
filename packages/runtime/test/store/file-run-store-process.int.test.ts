/**
 * The file run store knows which process runs each run: a run created by a process that is then
 * killed (a real child process, SIGKILLed) reads back as `interrupted` from `getRun` and
 * `listRuns`, never stored so; a run whose process still lives reads `running`; a process that
 * sets the status to `running` again (a resume) takes the run over; a run left `waiting`, or one
 * that ended, reads as it was stored whatever became of its process.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseRunId, type RunId } from '@troupe/core';
import { describe, expect, it } from 'vitest';
import { createFileRunStore, runDirOf, type RunStatus } from '../../src/index.js';

const runtimeEntry = fileURLToPath(new URL('../../dist/index.js', import.meta.url));

/**
 * In a child process: creates run `id` in `dir` (and sets its status), says so, and stays until
 * killed. Resolves once the run is stored, with a function that SIGKILLs the child and waits for its end.
 */
async function createdElsewhere(dir: string, id: RunId, status: RunStatus): Promise<() => Promise<void>> {
  const script = `
    const { createFileRunStore } = await import(${JSON.stringify(runtimeEntry)});
    const store = createFileRunStore(${JSON.stringify(dir)});
    await store.createRun({ id: ${JSON.stringify(id)}, entry: 'a', input: 'x', status: 'running', startedAt: Date.now() });
    await store.updateRun(${JSON.stringify(id)}, { status: ${JSON.stringify(status)} });
    process.stdout.write('stored\\n');
    setInterval(() => undefined, 60_000);`;
  const child = spawn(process.execPath, ['--input-type=module', '-e', script], { stdio: ['ignore', 'pipe', 'inherit'] });
  await new Promise<void>((resolve, reject) => {
    child.once('exit', (code) => reject(new Error(`the child exited (${code}) before storing the run`)));
    child.stdout.setEncoding('utf8').on('data', (text: string) => text.includes('stored') && resolve());
  });
  return async () => {
    const exited = new Promise((resolve) => child.once('exit', resolve));
    child.kill('SIGKILL');
    await exited;
  };
}

describe('the process running a run, in the file run store', () => {
  it('reads a running run whose process was killed as interrupted, and running again once resumed', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'troupe-runs-'));
    const id = parseRunId('run_killed');
    const kill = await createdElsewhere(dir, id, 'running');
    const store = createFileRunStore(dir);
    expect(await store.getRun(id)).toMatchObject({ status: 'running' });
    await kill();
    expect(await store.getRun(id)).toMatchObject({ status: 'interrupted' });
    expect((await store.listRuns()).map((run) => run.status)).toEqual(['interrupted']);
    // Never written: the record still says running.
    expect(JSON.parse(readFileSync(join(runDirOf(dir, id), 'run.json'), 'utf8'))).toMatchObject({ status: 'running' });
    await store.updateRun(id, { status: 'running' });
    expect(await store.getRun(id)).toMatchObject({ status: 'running' });
    expect(JSON.parse(readFileSync(join(runDirOf(dir, id), 'process.json'), 'utf8'))).toMatchObject({ pid: process.pid });
  });

  it('reads a waiting or ended run as stored, whatever became of its process', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'troupe-runs-'));
    const waiting = parseRunId('run_waiting');
    const done = parseRunId('run_done');
    const kills = [await createdElsewhere(dir, waiting, 'waiting'), await createdElsewhere(dir, done, 'done')];
    for (const kill of kills) await kill();
    const store = createFileRunStore(dir);
    expect(await store.getRun(waiting)).toMatchObject({ status: 'waiting' });
    expect(await store.getRun(done)).toMatchObject({ status: 'done' });
  });
});
