/**
 * The run store contract (see src/testing/run-store-contract.ts) holds for the file run store, each test in a
 * fresh temporary directory; and, over a long-lived process, a torn line is still cut off once
 * the store has forgotten a run that waited; record updates made together land as one, the
 * latest value of each field winning, and an update after a pause reads the record the file holds;
 * an actor's checkpoints made together merge into one whose history is what they would have written.
 */
import { access, appendFile, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  Agent,
  createRunId,
  emptyUsage,
  parseAgentPath,
  userMessage,
  withHistory,
  type AgentEvent,
  type AgentSnapshot,
  type Message,
  type Usage,
} from '@troupe/core';
import { createScriptedProvider } from '@troupe/core/testing';
import { describe, expect, it } from 'vitest';
import { createFileRunStore, runDirOf } from '../../src/index.js';
import { runStoreContract } from '../../src/testing.js';

runStoreContract('files', async () => {
  const dir = await mkdtemp(join(tmpdir(), 'troupe-runs-'));
  return { store: createFileRunStore(dir), close: () => rm(dir, { recursive: true, force: true }) };
});

describe('the file run store over a long-lived process', () => {
  // Regression: it kept two paths per run it ever appended to, for the life of the process; now it
  // forgets them once a run waits or ends, and looks at a file's last byte again before the next append.
  it('cuts off a line torn while the run waited before appending again', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'troupe-runs-'));
    try {
      const store = createFileRunStore(dir);
      const id = createRunId(Date.now());
      const event = (seq: number): AgentEvent => ({ type: 'turn_start', turn: seq, runId: id, agentPath: parseAgentPath('lead'), seq, ts: seq });
      await store.createRun({ id, entry: 'lead', input: 'hi', status: 'running', startedAt: 0 });
      store.appendEvent(event(1));
      await store.updateRun(id, { status: 'waiting' });
      await store.flush(id);
      // Another process, which took the run up while it waited, killed halfway through a line.
      await appendFile(join(runDirOf(dir, id), 'events.jsonl'), '{"type":"turn_st');
      store.appendEvent(event(2));
      await store.flush(id);
      expect((await store.readEvents(id)).map((e) => e.seq)).toEqual([1, 2]);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});

describe('where the file run store keeps a run', () => {
  it('is runDirOf its directory, however that directory is spelled', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'troupe-runs-'));
    try {
      for (const spelling of [dir, `${dir}/`, `${dir}/./`, `${dir}/sub/..`]) {
        const store = createFileRunStore(spelling);
        const id = createRunId(Date.now());
        await store.createRun({ id, entry: 'lead', input: 'hi', status: 'running', startedAt: 0 });
        await access(join(runDirOf(dir, id), 'run.json'));
        expect((await store.getRun(id))?.input).toBe('hi');
      }
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});

describe('record updates of the file run store', () => {
  it('merges updates made together, the latest value of each field winning', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'troupe-runs-'));
    try {
      const store = createFileRunStore(dir);
      const id = createRunId(Date.now());
      await store.createRun({ id, entry: 'lead', input: 'hi', status: 'running', startedAt: 0 });
      const usage = (input: number): Usage => ({ ...emptyUsage(), input });
      const writes = [
        store.updateRun(id, { turns: 1, usage: usage(1) }),
        store.updateRun(id, { status: 'waiting' }),
        store.updateRun(id, { turns: 2, usage: usage(2) }),
        store.updateRun(id, { status: 'running' }),
        store.updateRun(id, { turns: 3 }),
      ];
      await Promise.all(writes);
      const record = await store.getRun(id);
      expect(record).toMatchObject({ status: 'running', turns: 3, usage: usage(2), input: 'hi' });
      // The file holds the same record, on one line.
      const text = await readFile(join(runDirOf(dir, id), 'run.json'), 'utf8');
      expect(JSON.parse(text)).toEqual(record);
      expect(text.trimEnd().includes('\n')).toBe(false);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });

  it('reads the record the file holds again once the run waits and its writes have landed', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'troupe-runs-'));
    try {
      const store = createFileRunStore(dir);
      const id = createRunId(Date.now());
      await store.createRun({ id, entry: 'lead', input: 'hi', status: 'running', startedAt: 0 });
      await store.updateRun(id, { turns: 1, status: 'waiting' });
      // Another process changes the record while the run waits (it took the run up and switched its model).
      const file = join(runDirOf(dir, id), 'run.json');
      await writeFile(file, JSON.stringify({ ...JSON.parse(await readFile(file, 'utf8')), model: 'other' }));
      await store.updateRun(id, { turns: 2 });
      expect(await store.getRun(id)).toMatchObject({ turns: 2, model: 'other', status: 'waiting' });
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});

describe('checkpoints of the file run store made together', () => {
  it('merge into one whose history is what they would have written one by one', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'troupe-runs-'));
    try {
      const store = createFileRunStore(dir);
      const id = createRunId(Date.now());
      await store.createRun({ id, entry: 'lead', input: 'hi', status: 'running', startedAt: 0 });
      // A message's timestamp follows from its text, so the same text is the same message in every checkpoint.
      const messages = (...texts: string[]): Message[] => texts.map((text) => userMessage(text, text.charCodeAt(0)));
      const agent = new Agent({ provider: createScriptedProvider([{ text: 'hello' }]), model: 'test', path: 'lead' });
      await agent.prompt('hi');
      const { head: base } = agent.checkpoint();
      const head = (seq: number): AgentSnapshot => ({ ...base, seq });
      const cases: Array<{ checkpoints: Array<[number, string[]]>; history: string[] }> = [
        {
          checkpoints: [
            [0, ['a', 'b']],
            [2, ['c']],
            [3, ['d', 'e']],
          ],
          history: ['a', 'b', 'c', 'd', 'e'],
        },
        // A history cut back (rewritten from a later point), then replaced from the start.
        {
          checkpoints: [
            [0, ['a', 'b', 'c']],
            [2, ['q']],
            [3, ['r']],
          ],
          history: ['a', 'b', 'q', 'r'],
        },
        {
          checkpoints: [
            [0, ['a', 'b', 'c']],
            [3, ['d']],
            [0, ['x', 'y']],
            [2, ['z']],
          ],
          history: ['x', 'y', 'z'],
        },
      ];
      let seq = 0;
      for (const { checkpoints, history } of cases) {
        const writes = checkpoints.map(([from, texts]) => store.saveCheckpoint(id, { head: head(++seq), from, added: messages(...texts) }));
        await Promise.all(writes);
        const expected = withHistory(head(seq), messages(...history));
        expect(await store.loadSnapshots(id)).toEqual([expected]);
      }
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});
