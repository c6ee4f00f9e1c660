/**
 * The takeover marker of the file run store, on real files: taking up a run recorded by another
 * process writes `taken.json` naming this one; a marker of another live process refuses with
 * `run_already_answered`; a marker whose process has ended (a taker killed before it finished)
 * lapses and is replaced; the run's own process making it wait again releases the marker, so the
 * next question can be taken up by anyone.
 */
import { mkdtempSync, readFileSync, writeFileSync, existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseRunId } from '@troupe/core';
import { describe, expect, it } from 'vitest';
import { createFileRunStore, processIdentity, runDirOf } from '../../src/index.js';

const id = parseRunId('run_taken');

/** A store with a waiting run recorded as run by the parent process (alive, not this one). */
async function waitingElsewhere(): Promise<{ dir: string; file: (name: string) => string }> {
  const dir = mkdtempSync(join(tmpdir(), 'troupe-taken-'));
  const store = createFileRunStore(dir);
  await store.createRun({ id, entry: 'a', input: 'x', status: 'waiting', startedAt: 1 });
  const file = (name: string): string => join(runDirOf(dir, id), name);
  writeFileSync(file('process.json'), JSON.stringify(processIdentity(process.ppid)));
  return { dir, file };
}

describe('taking up a run from another process', () => {
  it('marks this process as the taker', async () => {
    const { dir, file } = await waitingElsewhere();
    await createFileRunStore(dir).updateRun(id, { status: 'running' });
    expect(JSON.parse(readFileSync(file('taken.json'), 'utf8'))).toEqual(processIdentity());
    expect(JSON.parse(readFileSync(file('process.json'), 'utf8'))).toEqual(processIdentity());
  });

  it('refuses when another live process took it up first', async () => {
    const { dir, file } = await waitingElsewhere();
    writeFileSync(file('taken.json'), JSON.stringify(processIdentity(process.ppid)));
    await expect(createFileRunStore(dir).updateRun(id, { status: 'running' })).rejects.toMatchObject({
      code: 'run_already_answered',
      message: `run ${id} was already answered by another process (pid ${process.ppid} on ${processIdentity().host}), which goes on with it`,
    });
    expect(await createFileRunStore(dir).getRun(id)).toMatchObject({ status: 'waiting' });
  });

  it('replaces the marker of a taker that has ended', async () => {
    const { dir, file } = await waitingElsewhere();
    // This pid with another start time: a process that has ended (its pid reused by this one).
    writeFileSync(file('taken.json'), JSON.stringify({ ...processIdentity(), start: 'long ago' }));
    await createFileRunStore(dir).updateRun(id, { status: 'running' });
    expect(JSON.parse(readFileSync(file('taken.json'), 'utf8'))).toEqual(processIdentity());
  });

  it('releases the marker when its process makes the run wait again', async () => {
    const { dir, file } = await waitingElsewhere();
    const store = createFileRunStore(dir);
    await store.updateRun(id, { status: 'running' });
    expect(existsSync(file('taken.json'))).toBe(true);
    await store.updateRun(id, { status: 'waiting' });
    expect(existsSync(file('taken.json'))).toBe(false);
  });
});
