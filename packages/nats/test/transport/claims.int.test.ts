/**
 * Workers claim a task's actor before running it, on a real nats-server: of two deliveries of one
 * child's task at once (nats-server 2.9 can hand one task to two workers), one runs the child and
 * the other leaves the task to it, so the child's tool runs once, while a host that went silent
 * (its machine died, its subscription lingers) is taken over; a child still on the queue (no
 * record yet) is known by its child record, so another process can wait for its result, and an
 * abort asked for meanwhile ends it as soon as a worker claims it.
 */
import { createRunId, parseAgentPath, type AgentPath, type RunId } from '@troupe/core';
import type { ToolFactory } from '@troupe/tools';
import { createToolRegistry } from '@troupe/tools';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { graphActorFactory } from '@troupe/runtime';
import {
  connectNats,
  createNatsRunStore,
  createNatsTransport,
  graphHash,
  kvKey,
  openNatsResources,
  type NatsResources,
  type NatsTransport,
} from '../../src/index.js';
import { startNatsServer, type NatsServerProcess } from '../../src/testing.js';
import { testGraph } from '@troupe/runtime/testing';
import { startCluster, type Cluster } from '../cluster.js';

/** How many times the helper's tool ran, in this process (the test's workers live here too). */
let marks = 0;
const mark: ToolFactory = {
  name: 'mark',
  description: 'Leaves a mark.',
  create: () => ({
    name: 'mark',
    description: 'Leaves a mark.',
    parameters: { type: 'object', properties: {} },
    execute: () => ({ content: `mark ${++marks}` }),
  }),
};
const tools = createToolRegistry({ factories: [mark] });
const graph = testGraph({
  lead: { delegates: ['helper'], script: [{ text: 'unused' }] },
  // It thinks a moment first, so a second delivery comes while it runs.
  helper: {
    placement: 'remote',
    tools: ['mark'],
    permissions: { mode: 'allow' },
    script: [{ toolCalls: [{ name: 'mark' }], delayMs: 300 }, { text: 'left {{lastToolResult}}' }],
  },
});
const helper = parseAgentPath('lead/helper#1');

let server: NatsServerProcess;
let cluster: Cluster | undefined;
const opened: NatsResources[] = [];

beforeAll(async () => {
  server = await startNatsServer();
});
afterEach(async () => {
  await cluster?.close();
  cluster = undefined;
  for (const resources of opened.splice(0)) await resources.nc.close();
  marks = 0;
});
afterAll(async () => {
  await server?.stop();
});

/** A run whose lead delegated to the helper: its run and child records, as a delegation writes them before the task. */
async function delegated(transport: NatsTransport, store = cluster!.runtime.store): Promise<RunId> {
  const runId = createRunId(Date.now());
  await store.createRun({ id: runId, graphFile: graph.file, entry: 'lead', input: 'go', status: 'running', startedAt: Date.now() });
  await store.saveChild(runId, { parent: parseAgentPath('lead'), toolCallId: 'call_1', path: helper, agent: 'helper', task: 'mark it', depth: 1 });
  expect(transport.keepsResults).toBe(true);
  return runId;
}

function task(runId: RunId, path: AgentPath = helper): Parameters<NatsTransport['publish']>[0] {
  return { runId, path, agent: 'helper', depth: 1, input: 'mark it' };
}

/** Another coordinator process: its own connection and transport on the cluster's namespace. */
async function elsewhere(): Promise<NatsTransport> {
  const resources = await openNatsResources(await connectNats({ servers: server.url }), { namespace: cluster!.resources.names.namespace });
  opened.push(resources);
  const store = createNatsRunStore(resources);
  return createNatsTransport({
    resources,
    store,
    factory: graphActorFactory(graph, { store, tools, sleep: () => Promise.resolve() }),
    graphHash: graphHash(graph),
    placement: () => 'remote',
  });
}

describe('claims on tasks', () => {
  it('runs a child once when its task is delivered twice at once, and leaves the second delivery to the first', async () => {
    cluster = await startCluster({ graph, tools, workers: 2, server, worker: { ackWaitMs: 1000 } });
    const transport = cluster.runtime.transport as NatsTransport;
    const runId = await delegated(transport);
    // Two messages for one actor stand for one message the server hands out twice; the second
    // comes once a worker has claimed the child, before it ran its tool (the old check, "has it a
    // checkpoint?", would have started it again).
    await transport.publish(task(runId), 'first');
    await expect.poll(async () => (await cluster!.resources.actors.get(kvKey(runId, helper)))?.json()).toMatchObject({ status: 'running', fromQueue: true });
    await transport.publish(task(runId), 'second');

    expect(await transport.result(runId, helper)).toMatchObject({ stopReason: 'stop', text: 'left mark 1' });
    expect(marks).toBe(1);
    const starts = (await cluster.runtime.store.readEvents(runId)).filter((e) => e.type === 'agent_start');
    expect(starts.map((e) => e.agentPath)).toEqual([helper]);
    // The delivery left alone comes back after its ack wait, finds the child ended, and is acked.
    const { jsm, names } = cluster.resources;
    await expect.poll(async () => (await jsm.streams.info(names.tasksStream)).state.messages, { timeout: 10_000 }).toBe(0);
    expect(marks).toBe(1);
    expect(
      cluster.workers.map((w) => w.load()).reduce((sum, load) => ({ taken: sum.taken + load.taken, ended: sum.ended + load.ended }), { taken: 0, ended: 0 }),
    ).toEqual({ taken: 3, ended: 1 });
  });

  it('takes over from a host that died without closing its connection (its subscription lingers, silent)', async () => {
    cluster = await startCluster({ graph, tools, workers: 1, server, worker: { ackWaitMs: 1000 } });
    const transport = cluster.runtime.transport as NatsTransport;
    const runId = await delegated(transport);
    // A worker claimed the child and its machine died: nats-server still routes to its subscription.
    const zombie = await connectNats({ servers: server.url });
    zombie.subscribe(cluster.resources.names.controlSubject(runId, helper), { callback: () => undefined });
    await zombie.flush();
    await cluster.resources.actors.put(
      kvKey(runId, helper),
      JSON.stringify({ agent: 'helper', depth: 1, status: 'running', host: 'zombie', fromQueue: true, updatedAt: Date.now() }),
    );
    await transport.publish(task(runId), 'again');

    // The worker's probe goes unanswered: it takes the child over instead of leaving it to the dead host.
    expect(await transport.result(runId, helper)).toMatchObject({ stopReason: 'stop', text: 'left mark 1' });
    expect(marks).toBe(1);
    await expect.poll(async () => (await cluster!.resources.actors.get(kvKey(runId, helper)))?.json()).toMatchObject({ status: 'ended' });
    await zombie.close();
  });

  it('waits for the result of a child still on the queue, from another process, and ends it aborted when asked before a worker claims it', async () => {
    cluster = await startCluster({ graph, tools, workers: 0, server });
    const transport = cluster.runtime.transport as NatsTransport;
    const runId = await delegated(transport);
    await transport.publish(task(runId), 'only');
    expect(await cluster.resources.actors.get(kvKey(runId, helper))).toBeNull();

    const other = await elsewhere();
    const result = other.result(runId, helper);
    await expect(other.result(runId, parseAgentPath('lead/helper#2'))).rejects.toMatchObject({ code: 'unknown_actor' });
    await other.control(runId, helper, { type: 'abort' });
    expect((await cluster.resources.actors.get(kvKey(runId, helper)))?.json()).toMatchObject({ status: 'queued', abortRequested: true });

    await cluster.addWorker();
    expect(await result).toMatchObject({ stopReason: 'aborted' });
    expect(marks).toBe(0);
    await other.close();
  });
});
