/**
 * Two processes answering the same waiting run at once, on the file run store (real child
 * processes, one runtime each): exactly one takes the run up and finishes it with its answer; the
 * other gets `run_already_answered` ("already answered by another process"); the run goes on once
 * (its tool ran once, it ended once). The winner is held inside its tool until the loser has
 * answered, so the loser always meets the run still in progress, whatever the machine's load.
 */
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseRunId } from '@troupe/core';
import { afterEach, describe, expect, it } from 'vitest';
import { createFileRunStore } from '../../src/index.js';
import { type ChildSays, type RunProcess, runProcess, startWaitingRun } from './waiting-run-processes.js';

const started: RunProcess[] = [];
afterEach(() => {
  for (const process of started.splice(0)) process.kill();
});

describe('two processes answering one waiting run', () => {
  it('lets one win; the other is told the run was already answered, and the run goes on once', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'troupe-answer-'));
    const notes = join(dir, 'notes.txt');
    writeFileSync(notes, '');
    const runId = await startWaitingRun(dir, notes);
    const store = createFileRunStore(dir);
    expect(await store.getRun(parseRunId(runId))).toMatchObject({ status: 'waiting' });

    const answerers = [runProcess('answer', [dir, runId, 'Lisbon'], notes), runProcess('answer', [dir, runId, 'Porto'], notes)];
    started.push(...answerers);
    for (const answerer of answerers) expect(await answerer.next()).toEqual({ ready: true });
    for (const answerer of answerers) answerer.send('go');
    // Each says first either that its tool runs (it won) or how its answer ended (it lost).
    const first: ChildSays[] = await Promise.all(answerers.map((answerer) => answerer.next()));
    const winner = first.findIndex((said) => said['tool'] === 'note');
    expect(winner).not.toBe(-1);
    const loser = 1 - winner;
    expect(first[loser]).toEqual({
      outcome: 'error',
      code: 'run_already_answered',
      message: expect.stringMatching(new RegExp(`^run ${runId} was already answered by another process \\(pid \\d+ on .+\\), which goes on with it$`)),
    });
    answerers[winner]?.send('release');
    const answer = winner === 0 ? 'Lisbon' : 'Porto';
    expect(await answerers[winner]?.next()).toEqual({ outcome: 'done', text: 'going to noted' });
    await Promise.all(answerers.map((answerer) => answerer.exited));

    expect(readFileSync(notes, 'utf8').trim().split('\n')).toHaveLength(1);
    expect(await store.getRun(parseRunId(runId))).toMatchObject({ status: 'done' });
    const events = await store.readEvents(parseRunId(runId));
    expect(events.filter((event) => event.type === 'agent_end')).toHaveLength(1);
    expect(events.filter((event) => event.type === 'tool_end').map((event) => (event.type === 'tool_end' ? event.toolName : ''))).toEqual(['ask', 'note']);
    // The answer that was taken is the winner's.
    const [snapshot] = await store.loadSnapshots(parseRunId(runId));
    expect(JSON.stringify(snapshot?.context.messages)).toContain(answer);
  }, 120_000);
});
