/**
 * A process killed while writing to the file run store (a real child process that writes half an
 * event line to events.jsonl, half a message line, and half a checkpoint head, then SIGKILLs
 * itself): the run still reads back (record, events, snapshots: what `troupe show` reads) with
 * only the torn writes lost, and it still resumes and finishes in another process, after which
 * its events and history read back whole. (Regression: the first append after a torn line ran
 * into it, so the merged line, and the event or message it held, no longer parsed.)
 */
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseRunId } from '@troupe/core';
import { afterEach, describe, expect, it } from 'vitest';
import { createFileRunStore, runDirOf } from '../../src/index.js';
import { type RunProcess, runProcess, startWaitingRun } from './waiting-run-processes.js';

const started: RunProcess[] = [];
afterEach(() => {
  for (const process of started.splice(0)) process.kill();
});

describe('a writer killed mid-write', () => {
  it('loses only its torn writes: the run reads back, resumes and finishes', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'troupe-torn-'));
    const notes = join(dir, 'notes.txt');
    writeFileSync(notes, '');
    const runId = parseRunId(await startWaitingRun(dir, notes));
    const store = createFileRunStore(dir);
    const eventsBefore = await store.readEvents(runId);
    const [snapshotBefore] = await store.loadSnapshots(runId);
    expect(snapshotBefore?.context.pending).not.toBeNull();

    const torn = runProcess('torn', [dir, runId], notes);
    started.push(torn);
    expect(await torn.exited).toEqual({ code: null, signal: 'SIGKILL' });
    expect(readFileSync(join(runDirOf(dir, runId), 'events.jsonl'), 'utf8').endsWith('\n')).toBe(false);

    // What troupe show reads, through a fresh store as another process would.
    const reader = createFileRunStore(dir);
    expect(await reader.getRun(runId)).toMatchObject({ status: 'waiting' });
    expect(await reader.readEvents(runId)).toEqual(eventsBefore);
    expect(await reader.loadSnapshots(runId)).toEqual([snapshotBefore]);

    // What troupe resume and reply do: take it up in another process and answer it.
    const answerer = runProcess('answer', [dir, runId, 'Braga'], notes);
    started.push(answerer);
    expect(await answerer.next()).toEqual({ ready: true });
    answerer.send('go');
    expect(await answerer.next()).toEqual({ tool: 'note' });
    answerer.send('release');
    expect(await answerer.next()).toEqual({ outcome: 'done', text: 'going to noted' });
    expect((await answerer.exited).code).toBe(0);

    const after = createFileRunStore(dir);
    expect(await after.getRun(runId)).toMatchObject({ status: 'done' });
    const events = await after.readEvents(runId);
    expect(events.slice(0, eventsBefore.length)).toEqual(eventsBefore);
    expect(events.some((event) => (event as { torn?: boolean }).torn === true)).toBe(false);
    expect(events.filter((event) => event.type === 'agent_end')).toHaveLength(1);
    const [snapshot] = await after.loadSnapshots(runId);
    const messages = snapshot?.context.messages ?? [];
    expect(messages.slice(0, snapshotBefore?.context.messages.length)).toEqual(snapshotBefore?.context.messages);
    expect(JSON.stringify(messages)).toContain('Braga');
    expect(JSON.stringify(messages)).not.toContain('torn');
  }, 120_000);
});
