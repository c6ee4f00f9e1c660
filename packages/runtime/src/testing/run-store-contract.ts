/**
 * The run store contract, written once and run against every run store (memory, files, NATS):
 * run records (create, update, get, list by start time, the typed error for an unknown run),
 * events read back in order, checkpoints (appended per turn, still appended through a compaction,
 * which keeps the history whole and its compacted view in the head; stale messages of an earlier
 * longer history, rewritten from 0, ignored; histories rebuilt equal to a real agent's own
 * snapshot, writes applied in call order), delegations, and deleting a run (everything of it,
 * nothing of another). Not a test file by itself: each store's test calls {@link runStoreContract}
 * (published under `@troupe/runtime/testing` for stores kept elsewhere, such as `@troupe/nats`'s;
 * it registers vitest suites).
 */
import {
  Agent,
  createRunId,
  emptyUsage,
  parseAgentPath,
  userMessage,
  withHistory,
  type AgentCheckpoint,
  type AgentEvent,
  type AgentOptions,
  type AgentSnapshot,
  type Message,
  type RunId,
  type Tool,
} from '@troupe/core';
import { createScriptedProvider, type ScriptStep } from '@troupe/core/testing';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { RunStoreErrorCode, type ChildRecord, type RunRecord, type RunStore } from '../index.js';

/** A store under test, and how to release it. */
export interface RunStoreSetup {
  store: RunStore;
  close?(): Promise<void>;
}

/** Builds a fresh, empty store for one test. */
export type MakeRunStore = () => Promise<RunStoreSetup>;

const echo: Tool = {
  name: 'echo',
  description: 'Echoes text.',
  parameters: { type: 'object', properties: { text: { type: 'string' } }, required: ['text'] },
  readOnly: true,
  execute: (args) => ({ content: String(args['text']) }),
};

let counter = 0;
const newRunId = (): RunId => createRunId(Date.now() + ++counter);
const record = (id: RunId, startedAt = 0): RunRecord => ({ id, entry: 'lead', input: 'hi', sessionId: `ses_${id}`, status: 'running', startedAt });
const checkpointOf = ({ mark: _mark, ...rest }: AgentCheckpoint): Omit<AgentCheckpoint, 'mark'> => rest;

/** Runs a scripted agent, taking a checkpoint at every turn end and one at the end, as a transport does. */
async function checkpointedRun(
  script: ScriptStep[],
  options: Partial<AgentOptions> & { prompts?: string[] } = {},
): Promise<{ agent: Agent; checkpoints: AgentCheckpoint[] }> {
  const { prompts = ['go'], ...agentOptions } = options;
  const agent = new Agent({ provider: createScriptedProvider(script, { chunkSize: 4 }), model: 'test', path: 'lead', ...agentOptions });
  const checkpoints: AgentCheckpoint[] = [];
  const take = (): void => void checkpoints.push(agent.checkpoint(checkpoints.at(-1)?.mark));
  agent.events$.subscribe((event) => event.type === 'turn_end' && take());
  for (const prompt of prompts) await agent.prompt(prompt);
  take();
  return { agent, checkpoints };
}

/** Registers the contract tests for one run store. */
export function runStoreContract(name: string, make: MakeRunStore): void {
  describe(`run store contract: ${name}`, () => {
    let setup: RunStoreSetup | undefined;
    let store: RunStore;
    beforeEach(async () => {
      setup = await make();
      store = setup.store;
    });
    afterEach(async () => {
      await setup?.close?.();
      setup = undefined;
    });

    describe('records', () => {
      it('creates, updates, gets and lists runs (with their session ids)', async () => {
        const [a, b, c] = [newRunId(), newRunId(), newRunId()];
        await store.createRun(record(a, 30));
        await store.createRun(record(b, 10));
        await store.createRun(record(c, 20));
        await store.updateRun(b, { status: 'done', endedAt: 15, stopReason: 'complete' });
        expect(await store.getRun(b)).toEqual({ ...record(b, 10), status: 'done', endedAt: 15, stopReason: 'complete' });
        // Not the order: the memory store lists runs in creation order, the others by start time.
        expect((await store.listRuns()).map((run) => run.id).sort()).toEqual([a, b, c].sort());
        expect(await store.getRun(newRunId())).toBeUndefined();
      });

      it("keeps a running run's usage and turns as they are updated", async () => {
        const id = newRunId();
        await store.createRun(record(id, 10));
        await store.updateRun(id, { usage: { ...emptyUsage(), input: 3, totalTokens: 3 }, turns: 1 });
        await store.updateRun(id, { usage: { ...emptyUsage(), input: 5, output: 2, totalTokens: 7 }, turns: 2 });
        expect(await store.getRun(id)).toEqual({ ...record(id, 10), usage: { ...emptyUsage(), input: 5, output: 2, totalTokens: 7 }, turns: 2 });
      });

      it('rejects an update and a snapshot load of an unknown run with unknown_run', async () => {
        const unknown = newRunId();
        await expect(store.updateRun(unknown, { status: 'done' })).rejects.toMatchObject({ code: RunStoreErrorCode.UnknownRun });
        await expect(store.loadSnapshots(unknown)).rejects.toMatchObject({ code: RunStoreErrorCode.UnknownRun });
      });
    });

    describe('events', () => {
      it('reads back the events of a run in the order they were appended', async () => {
        const [runId, other] = [newRunId(), newRunId()];
        await store.createRun(record(runId));
        await store.createRun(record(other));
        const event = (id: RunId, seq: number, path = 'lead'): AgentEvent => ({
          type: 'turn_start',
          turn: seq,
          runId: id,
          agentPath: parseAgentPath(path),
          seq,
          ts: seq,
        });
        const appended = Array.from({ length: 50 }, (_, i) => event(runId, i, i % 2 === 0 ? 'lead' : 'lead/researcher#2'));
        for (const e of appended) {
          store.appendEvent(e);
          store.appendEvent(event(other, e.seq));
        }
        await store.flush(runId);
        expect(await store.readEvents(runId)).toEqual(appended);
      });

      it('reads no events for a run that has none', async () => {
        const runId = newRunId();
        await store.createRun(record(runId));
        await store.flush(runId);
        expect(await store.readEvents(runId)).toEqual([]);
      });
    });

    describe('checkpoints', () => {
      /** Saves the checkpoints in a new run without waiting in between (the store must keep call order), then loads the snapshots. */
      const rebuilt = async (checkpoints: AgentCheckpoint[]): Promise<AgentSnapshot[]> => {
        const runId = newRunId();
        await store.createRun(record(runId));
        await Promise.all(checkpoints.map((checkpoint) => store.saveCheckpoint(runId, checkpointOf(checkpoint))));
        return store.loadSnapshots(runId);
      };

      it('appends what each turn added and rebuilds the history equal to the agent snapshot', async () => {
        const script = [...Array.from({ length: 3 }, (_, i) => ({ toolCalls: [{ name: 'echo', arguments: { text: `t${i}` } }] })), { text: 'done' }];
        const { agent, checkpoints } = await checkpointedRun(script, { tools: [echo] });
        expect(checkpoints.slice(1, -1).every((c) => c.from > 0 && c.added.length > 0)).toBe(true);
        expect(await rebuilt(checkpoints)).toEqual([agent.snapshot()]);
      });

      it('keeps appending through a compaction and rebuilds the whole history with its compacted view', async () => {
        const { agent, checkpoints } = await checkpointedRun([{ text: 'one' }, { text: 'two' }, { error: { kind: 'overflow' } }, { text: 'three' }], {
          prompts: ['first', 'second', 'third'],
          compaction: { compact: (messages) => messages.slice(-1) },
        });
        expect(checkpoints.slice(1).every((c) => c.from > 0)).toBe(true);
        const [snapshot] = await rebuilt(checkpoints);
        expect(snapshot).toEqual(agent.snapshot());
        expect(snapshot?.context.messages).toHaveLength(6);
        expect(snapshot?.context.view).toMatchObject({ head: [], from: 4 });
      });

      it('ignores the stale messages of an earlier, longer history', async () => {
        const { checkpoints } = await checkpointedRun([{ text: 'hello' }]);
        const [first] = checkpoints;
        if (first === undefined) throw new Error('the run took no checkpoint');
        const head = first.head;
        const messages = (...texts: string[]): Message[] => texts.map((text, i) => userMessage(text, i));
        const runId = newRunId();
        await store.createRun(record(runId));
        await store.saveCheckpoint(runId, { head, from: 0, added: messages('a', 'b', 'c') });
        await store.saveCheckpoint(runId, { head, from: 3, added: messages('d', 'e') });
        await store.saveCheckpoint(runId, { head, from: 0, added: messages('x', 'y', 'z') });
        expect(await store.loadSnapshots(runId)).toEqual([withHistory(head, messages('x', 'y', 'z'))]);
        await store.saveCheckpoint(runId, { head, from: 0, added: messages('w') });
        expect(await store.loadSnapshots(runId)).toEqual([withHistory(head, messages('w'))]);
      });

      it('keeps the latest snapshot of each actor', async () => {
        const lead = await checkpointedRun([{ text: 'one' }, { text: 'two' }], { prompts: ['a', 'b'] });
        const child = await checkpointedRun([{ text: 'found it' }], { path: 'lead/researcher#2' });
        const snapshots = await rebuilt([...lead.checkpoints.slice(0, 1), ...child.checkpoints, ...lead.checkpoints.slice(1)]);
        expect([...snapshots].sort((a, b) => a.agentPath.localeCompare(b.agentPath))).toEqual([lead.agent.snapshot(), child.agent.snapshot()]);
      });
    });

    describe('children', () => {
      it('saves, overwrites and finds delegations, by parent', async () => {
        const runId = newRunId();
        await store.createRun(record(runId));
        const child = (parent: string, toolCallId: string, task = 'look'): ChildRecord => ({
          parent: parseAgentPath(parent),
          toolCallId,
          path: parseAgentPath(`${parent}/researcher#1`),
          agent: 'researcher',
          task,
          depth: 1,
        });
        await store.saveChild(runId, child('lead', 'call_1'));
        await store.saveChild(runId, child('lead', 'call_2'));
        await store.saveChild(runId, child('lead/researcher#1', 'call_1'));
        const done: ChildRecord = { ...child('lead', 'call_1'), outcome: { stopReason: 'complete', text: 'found', usage: emptyUsage() } };
        await store.saveChild(runId, done);
        expect(await store.child(runId, parseAgentPath('lead'), 'call_1')).toEqual(done);
        expect(await store.child(runId, parseAgentPath('lead'), 'call_9')).toBeUndefined();
        const byCall = (a: ChildRecord, b: ChildRecord): number => `${a.parent} ${a.toolCallId}`.localeCompare(`${b.parent} ${b.toolCallId}`);
        expect((await store.children(runId, parseAgentPath('lead'))).sort(byCall)).toEqual([done, child('lead', 'call_2')]);
        expect((await store.children(runId)).sort(byCall)).toEqual([done, child('lead', 'call_2'), child('lead/researcher#1', 'call_1')]);
      });
    });

    describe('deleting', () => {
      it('deletes everything kept about one run, and leaves the others alone', async () => {
        const { checkpoints } = await checkpointedRun([{ text: 'one' }, { text: 'two' }], { prompts: ['a', 'b'] });
        const [gone, kept] = [newRunId(), newRunId()];
        for (const id of [gone, kept]) {
          await store.createRun(record(id));
          store.appendEvent({ type: 'turn_start', turn: 1, runId: id, agentPath: parseAgentPath('lead'), seq: 1, ts: 1 });
          for (const checkpoint of checkpoints) await store.saveCheckpoint(id, checkpointOf(checkpoint));
          await store.saveChild(id, {
            parent: parseAgentPath('lead'),
            toolCallId: 'call_1',
            path: parseAgentPath('lead/researcher#1'),
            agent: 'researcher',
            task: 't',
            depth: 1,
          });
          await store.flush(id);
        }
        await store.deleteRun(gone);
        expect(await store.getRun(gone)).toBeUndefined();
        expect((await store.listRuns()).map((run) => run.id)).not.toContain(gone);
        await expect(store.loadSnapshots(gone)).rejects.toMatchObject({ code: RunStoreErrorCode.UnknownRun });
        await expect(store.deleteRun(gone)).rejects.toMatchObject({ code: RunStoreErrorCode.UnknownRun });
        expect(await store.getRun(kept)).toEqual(record(kept));
        expect(await store.readEvents(kept)).toHaveLength(1);
        expect(await store.loadSnapshots(kept)).toHaveLength(1);
        expect(await store.children(kept)).toHaveLength(1);
      });

      it('starts afresh when a deleted run id is created again', async () => {
        const id = newRunId();
        await store.createRun(record(id));
        store.appendEvent({ type: 'turn_start', turn: 1, runId: id, agentPath: parseAgentPath('lead'), seq: 1, ts: 1 });
        await store.saveChild(id, {
          parent: parseAgentPath('lead'),
          toolCallId: 'call_1',
          path: parseAgentPath('lead/researcher#1'),
          agent: 'researcher',
          task: 't',
          depth: 1,
        });
        await store.deleteRun(id);
        await store.createRun(record(id, 5));
        await store.flush(id);
        expect(await store.getRun(id)).toEqual(record(id, 5));
        expect(await store.readEvents(id)).toEqual([]);
        expect(await store.children(id)).toEqual([]);
        expect(await store.loadSnapshots(id)).toEqual([]);
      });

      it('rejects deleting a run it does not have with unknown_run', async () => {
        await expect(store.deleteRun(newRunId())).rejects.toMatchObject({ code: RunStoreErrorCode.UnknownRun });
      });
    });
  });
}
