/**
 * The run store contract (see `@troupe/runtime/testing`, testing/run-store-contract.ts there) holds
 * for the NATS run store on a real nats-server, one namespace per test; and what is NATS's own:
 * runs listed by start time, updates of one run from two connections both land (compare-and-set), a
 * history larger than one payload is split into chunks and rebuilt, a message or an event larger
 * than one payload is a typed error, events appended while the server restarts are all stored,
 * once, in order, a deleted run leaves nothing in any stream or bucket, and checkpoints of one
 * actor made before the previous is written are stored as one head holding all of them, and a
 * store that alone writes a run's record updates it without reading it first.
 */
import { Agent, createRunId, parseAgentPath, userMessage, type AgentEvent, type AgentSnapshot, type RunId } from '@troupe/core';
import { createScriptedProvider } from '@troupe/core/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connectNats, createNatsRunStore, NatsErrorCode, openNatsResources, type NatsConnection } from '../../src/index.js';
import { startNatsServer, type NatsServerProcess } from '../../src/testing.js';
import { runStoreContract } from '@troupe/runtime/testing';

let server: NatsServerProcess;
const connections: NatsConnection[] = [];
let namespaces = 0;

const connection = async (): Promise<NatsConnection> => {
  const nc = await connectNats({ servers: server.url, reconnect: { initialDelayMs: 50, maxDelayMs: 200, jitterMs: 50 } });
  connections.push(nc);
  return nc;
};
const freshStore = async (namespace = `store${++namespaces}`) => createNatsRunStore(await openNatsResources(await connection(), { namespace }));

beforeAll(async () => {
  server = await startNatsServer();
});

afterAll(async () => {
  for (const nc of connections) await nc.close();
  await server?.stop();
});

runStoreContract('nats', async () => ({ store: await freshStore() }));

describe('the NATS run store', () => {
  const head = (): AgentSnapshot => new Agent({ provider: createScriptedProvider([]), model: 'test', path: 'lead' }).checkpoint().head;
  const runOf = (id: RunId, startedAt = 0) => ({ id, entry: 'lead', input: 'hi', status: 'running' as const, startedAt });

  it('lists runs by start time', async () => {
    const store = await freshStore();
    const ids = [createRunId(1), createRunId(2), createRunId(3)];
    await store.createRun(runOf(ids[0]!, 30));
    await store.createRun(runOf(ids[1]!, 10));
    await store.createRun(runOf(ids[2]!, 20));
    expect((await store.listRuns()).map((run) => run.id)).toEqual([ids[1], ids[2], ids[0]]);
  });

  it('keeps both of two concurrent updates of one run from two connections', async () => {
    const namespace = `cas${++namespaces}`;
    const [coordinator, worker] = [await freshStore(namespace), await freshStore(namespace)];
    const runId = createRunId();
    await coordinator.createRun(runOf(runId));
    await Promise.all(
      Array.from({ length: 10 }, (_, i) => (i % 2 === 0 ? coordinator : worker).updateRun(runId, i % 2 === 0 ? { input: `in${i}` } : { graphFile: `g${i}` })),
    );
    await Promise.all([coordinator.updateRun(runId, { status: 'done' }), worker.updateRun(runId, { endedAt: 5 })]);
    expect(await coordinator.getRun(runId)).toMatchObject({ status: 'done', endedAt: 5, input: 'in8', graphFile: 'g9' });
  });

  it('updates a run record it alone writes without reading it, and one another store wrote after reading it', async () => {
    const namespace = `reads${++namespaces}`;
    const [coordinator, other] = [await freshStore(namespace), await freshStore(namespace)];
    const reads: string[] = [];
    const watcher = await connection();
    watcher.subscribe(`$JS.API.DIRECT.GET.KV_${coordinator.resources.names.runsBucket}.>`, { callback: (_error, msg) => void reads.push(msg.subject) });
    await watcher.flush();
    const runId = createRunId();
    await coordinator.createRun(runOf(runId));
    await coordinator.updateRun(runId, { input: 'one' });
    await coordinator.updateRun(runId, { turns: 2 });
    await other.updateRun(runId, { graphFile: 'g' });
    await coordinator.updateRun(runId, { status: 'done' });
    await watcher.flush();
    // The other store read before its write; the coordinator read once, after the other's write.
    expect(reads).toHaveLength(2);
    expect(await other.getRun(runId)).toMatchObject({ input: 'one', turns: 2, graphFile: 'g', status: 'done' });
  });

  it('deletes a run from every stream and bucket, leaving no delete markers', async () => {
    const store = await freshStore();
    const { names, jsm } = store.resources;
    const runId = createRunId();
    await store.createRun(runOf(runId));
    const big = userMessage(''.padEnd(8_000, '.'), 0);
    await store.saveCheckpoint(runId, { head: head(), from: 0, added: [big] });
    await store.resources.actors.put(`${runId}.lead`, JSON.stringify({ status: 'ended' }));
    store.appendEvent({ type: 'turn_start', turn: 1, runId, agentPath: parseAgentPath('lead'), seq: 1, ts: 1 });
    await store.flush(runId);
    const stored = async (stream: string): Promise<number> => (await jsm.streams.info(stream)).state.messages;
    const buckets = [names.runsBucket, names.actorsBucket, names.headsBucket, names.messagesBucket].map((bucket) => `KV_${bucket}`);
    for (const stream of buckets) expect(await stored(stream)).toBeGreaterThan(0);
    await store.deleteRun(runId);
    for (const stream of buckets) expect(await stored(stream)).toBe(0);
    expect((await jsm.streams.info(names.eventsStream, { subjects_filter: names.eventsSubject(runId) })).state.subjects ?? {}).toEqual({});
  });

  it('splits a history larger than one payload into chunks and rebuilds it', async () => {
    const store = await freshStore();
    const runId = createRunId();
    await store.createRun(runOf(runId));
    const big = (i: number) => userMessage(`${i}`.padEnd(400_000, '.'), i);
    const history = [big(0), big(1), big(2), big(3), big(4)];
    await store.saveCheckpoint(runId, { head: head(), from: 0, added: history.slice(0, 1) });
    await store.saveCheckpoint(runId, { head: head(), from: 1, added: history.slice(1) });
    const [snapshot] = await store.loadSnapshots(runId);
    expect(snapshot?.context.messages).toEqual(history);
    const chunkKeys: string[] = [];
    for await (const key of await store.resources.messages.keys()) chunkKeys.push(key.split('.').at(-1)!);
    expect(chunkKeys.map(Number).sort((a, b) => a - b)).toEqual([0, 1, 3]);
  });

  it('stores checkpoints of one actor made before the previous one is written as one head with every message', async () => {
    const store = await freshStore();
    const { names, jsm } = store.resources;
    const runId = createRunId();
    await store.createRun(runOf(runId));
    const stored = async (): Promise<number> => (await jsm.streams.info(`KV_${names.headsBucket}`)).state.last_seq;
    const before = await stored();
    const history = [userMessage('a', 0), userMessage('b', 1), userMessage('c', 2)];
    const saved = [
      store.saveCheckpoint(runId, { head: { ...head(), seq: 1 }, from: 0, added: history.slice(0, 1) }),
      store.saveCheckpoint(runId, { head: { ...head(), seq: 2 }, from: 1, added: history.slice(1, 2) }),
      store.saveCheckpoint(runId, { head: { ...head(), seq: 3 }, from: 2, added: history.slice(2) }),
    ];
    await Promise.all(saved);
    expect((await stored()) - before).toBe(1);
    const [snapshot] = await store.loadSnapshots(runId);
    expect(snapshot?.seq).toBe(3);
    expect(snapshot?.context.messages).toEqual(history);
  });

  it('rejects a message larger than one payload with a typed error naming the actor and the size', async () => {
    const store = await freshStore();
    const runId = createRunId();
    await store.createRun(runOf(runId));
    const huge = userMessage('x'.repeat(2_000_000), 0);
    const saved = store.saveCheckpoint(runId, { head: { ...head(), agentPath: 'lead/researcher#2' }, from: 0, added: [huge] });
    await expect(saved).rejects.toMatchObject({ code: NatsErrorCode.MessageTooLarge, data: { agentPath: 'lead/researcher#2', index: 0 } });
    await expect(saved).rejects.toThrow(/lead\/researcher#2 is 20000\d\d bytes/);
  });

  it('rejects the flush of a run with an event larger than one payload, and stores its other events', async () => {
    const store = await freshStore();
    const runId = createRunId();
    await store.createRun(runOf(runId));
    const huge: AgentEvent = { type: 'error', error: { code: 'x', message: 'x'.repeat(2_000_000) }, runId, agentPath: parseAgentPath('lead'), seq: 1, ts: 0 };
    store.appendEvent({ type: 'agent_start', sessionId: 'ses_1', runId, agentPath: parseAgentPath('lead'), seq: 0, ts: 0 });
    store.appendEvent(huge);
    store.appendEvent({ type: 'agent_start', sessionId: 'ses_1', runId, agentPath: parseAgentPath('lead'), seq: 2, ts: 0 });
    await expect(store.flush(runId)).rejects.toMatchObject({ code: NatsErrorCode.EventNotStored, data: { agentPath: 'lead', seq: 1 } });
    expect((await store.readEvents(runId)).map((e) => e.seq)).toEqual([0, 2]);
    await store.flush(runId);
  });

  it('stores every event appended while the server restarts, once and in order', async () => {
    const store = await freshStore();
    const runId = createRunId();
    await store.createRun(runOf(runId));
    const event = (seq: number): AgentEvent => ({ type: 'turn_start', turn: seq, runId, agentPath: parseAgentPath('lead'), seq, ts: seq });
    const events = Array.from({ length: 60 }, (_, i) => event(i));
    for (const e of events.slice(0, 10)) store.appendEvent(e);
    await store.flush(runId);
    for (const e of events.slice(10, 20)) store.appendEvent(e);
    await server.stop({ keepStore: true });
    for (const e of events.slice(20, 40)) store.appendEvent(e);
    await server.restart();
    for (const e of events.slice(40)) store.appendEvent(e);
    await store.flush(runId);
    expect((await store.readEvents(runId)).map((e) => e.seq)).toEqual(events.map((e) => e.seq));
  });
});
