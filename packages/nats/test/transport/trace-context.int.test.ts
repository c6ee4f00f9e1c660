/**
 * The trace context across NATS, on a real nats-server: a task carries its actor's `trace` as the
 * W3C headers `traceparent` and `tracestate` (not in its body), and the worker hosts the actor in
 * it — a remote child in its delegating tool call's context, an entry queued on a worker in its
 * run's. An actor set aside waiting for a user keeps its context in its record and is restored in
 * it when another process answers. A task without the headers runs with no trace.
 */
import { createHash } from 'node:crypto';
import type { Msg } from '@nats-io/transport-node';
import { parseAgentPath, type AgentPath, type RunId } from '@troupe/core';
import { createToolRegistry } from '@troupe/tools';
import { describe, expect, it } from 'vitest';
import { graphActorFactory, type Instrumentation, type TraceCarrier } from '@troupe/runtime';
import { askTool, delegate, finished, testGraph, untilWaiting } from '@troupe/runtime/testing';
import {
  connectNats,
  createNatsRunStore,
  createNatsTransport,
  graphHash,
  kvKey,
  loadSnapshot,
  openNatsResources,
  type NatsResources,
} from '../../src/index.js';
import { useClusters, type Cluster } from '../cluster.js';

const tools = createToolRegistry({ factories: [askTool] });
const startCluster = useClusters();

/** One trace id for every scope: what differs is the span a scope names. */
const TRACE_ID = '4bf92f3577b34da6a3ce929d0e0e4736';

/** A W3C carrier naming `scope` (its span id is derived from it, its trace state says it). */
function carrier(scope: string): TraceCarrier {
  const spanId = createHash('sha256').update(scope).digest('hex').slice(0, 16);
  return { traceparent: `00-${TRACE_ID}-${spanId}-01`, tracestate: `troupe=${scope}` };
}

interface Hosted {
  path: string;
  trace: TraceCarrier | undefined;
}

/**
 * An instrumentation that hands out a carrier per scope and records each actor hosted, with its
 * `trace`; `until(n)` resolves once `n` actors have been hosted.
 */
function recorder(): { instrumentation: Instrumentation; hosted: Hosted[]; until(count: number): Promise<void> } {
  const hosted: Hosted[] = [];
  const latches: Array<{ count: number; resolve(): void }> = [];
  const instrumentation: Instrumentation = {
    // `leave`: what a runtime calls on close where `RunTrace` has it (a run it leaves going on).
    run: (run) => ({ carrier: carrier(`run:${run.runId}`), end: () => undefined, leave: () => undefined }),
    step: (step) => ({ carrier: carrier(`step:${step.path}`), end: () => undefined }),
    actor: (actor) => {
      hosted.push({ path: actor.request.path, trace: actor.request.trace });
      for (const latch of latches) if (hosted.length >= latch.count) latch.resolve();
      return { end: () => undefined };
    },
    carrierOf: (_runId: RunId, path: AgentPath, toolCallId: string) => carrier(`tool:${path}:${toolCallId}`),
  };
  const until = (count: number): Promise<void> => (hosted.length >= count ? Promise.resolve() : new Promise((resolve) => latches.push({ count, resolve })));
  return { instrumentation, hosted, until };
}

/** The first `count` task messages published on `agent`'s subject of graph `hash` (a plain subscriber sees what the stream stores). */
function published(cluster: Cluster, agent: string, hash: string, count = 1): Promise<Msg[]> {
  const sub = cluster.resources.nc.subscribe(cluster.resources.names.taskSubject(hash, agent), { max: count });
  return (async () => {
    const msgs: Msg[] = [];
    for await (const msg of sub) msgs.push(msg);
    return msgs;
  })();
}

/** The W3C headers of a task message. */
function w3cHeaders(msg: Msg | undefined): Record<string, string | undefined> {
  return { traceparent: msg?.headers?.get('traceparent'), tracestate: msg?.headers?.get('tracestate') };
}

async function record(resources: NatsResources, runId: RunId, path: string): Promise<Record<string, unknown> | undefined> {
  const entry = await resources.actors.get(kvKey(runId, path));
  return entry?.operation === 'PUT' ? entry.json() : undefined;
}

const team = testGraph({
  lead: { delegates: ['researcher'], script: [{ toolCalls: [{ id: 'c1', ...delegate('researcher', 'find A') }] }, { text: 'done: {{lastToolResult}}' }] },
  researcher: { placement: 'remote', script: [{ text: 'found it' }] },
});

describe('trace context over NATS', () => {
  it("hosts a remote child on a worker in its delegating tool call's context, carried as W3C headers", async () => {
    const coordinator = recorder();
    const workers = recorder();
    const cluster = await startCluster({
      graph: team,
      tools,
      instrumentation: coordinator.instrumentation,
      worker: { instrumentation: workers.instrumentation },
    });
    const tasks = published(cluster, 'researcher', graphHash(team));
    const run = cluster.runtime.run('go');
    const { status, result } = await finished(run);
    expect(status).toBe('done');
    expect(result.text).toBe('done: found it');
    const call = carrier('tool:lead:c1');
    expect(coordinator.hosted).toEqual([{ path: 'lead', trace: carrier(`run:${run.id}`) }]);
    expect(workers.hosted).toEqual([{ path: 'lead/researcher#1', trace: call }]);
    const [task] = await tasks;
    expect(w3cHeaders(task)).toEqual(call);
    expect(task?.string()).not.toContain('trace');
    // The claim wrote it into the child's record, and its end record kept it.
    expect(await record(cluster.resources, run.id, 'lead/researcher#1')).toMatchObject({ status: 'ended', trace: call });
  });

  it("hosts an entry queued on a worker in its run's context", async () => {
    const coordinator = recorder();
    const workers = recorder();
    const solo = testGraph({ lead: { script: [{ text: 'hi' }] } });
    const cluster = await startCluster({
      graph: solo,
      tools,
      remoteAll: true,
      instrumentation: coordinator.instrumentation,
      worker: { instrumentation: workers.instrumentation },
    });
    const tasks = published(cluster, 'lead', graphHash(solo));
    const run = cluster.runtime.run('go');
    expect((await finished(run)).status).toBe('done');
    const runs = carrier(`run:${run.id}`);
    expect(coordinator.hosted).toEqual([]);
    expect(workers.hosted).toEqual([{ path: 'lead', trace: runs }]);
    expect(w3cHeaders((await tasks)[0])).toEqual(runs);
    // Recorded queued with it at the spawn, kept by the claim and the end.
    expect(await record(cluster.resources, run.id, 'lead')).toMatchObject({ status: 'ended', trace: runs });
  });

  it('restores a child set aside waiting for a user in the context it was spawned in, when another process answers', async () => {
    const graph = testGraph({
      lead: { delegates: ['asker'], script: [{ toolCalls: [{ id: 'c1', ...delegate('asker', 'ask them') }] }, { text: 'lead: {{lastToolResult}}' }] },
      asker: {
        placement: 'remote',
        tools: ['ask'],
        script: [{ toolCalls: [{ name: 'ask', arguments: { question: 'Which city?' } }] }, { text: 'city {{lastToolResult}}' }],
      },
    });
    const coordinator = recorder();
    const workers = recorder();
    const cluster = await startCluster({
      graph,
      tools,
      workers: 2,
      instrumentation: coordinator.instrumentation,
      worker: { instrumentation: workers.instrumentation },
    });
    // The child's task, then the wake-up's.
    const tasks = published(cluster, 'asker', graphHash(graph), 2);
    const run = cluster.runtime.run('go');
    await untilWaiting(run);
    // Set aside: no process hosts it, so the answer below wakes it as a task.
    await expect.poll(() => cluster.workers.reduce((n, w) => n + w.load().parked, 0)).toBe(1);
    const call = carrier('tool:lead:c1');
    expect(await record(cluster.resources, run.id, 'lead/asker#1')).toMatchObject({ status: 'waiting', trace: call });

    // Another process answers (as `troupe reply` does): its own connection, a transport that knows no graph.
    const other = await openNatsResources(await connectNats({ servers: cluster.server.url }), { namespace: cluster.resources.names.namespace });
    const store = createNatsRunStore(other);
    const answering = createNatsTransport({
      resources: other,
      store,
      factory: graphActorFactory(graph, { store, tools, sleep: () => Promise.resolve() }),
      graphHash: '',
      placement: () => 'remote',
    });
    try {
      await answering.control(run.id, 'lead/asker#1' as AgentPath, { type: 'reply', answer: 'Lisbon' });
    } finally {
      await answering.close();
      await other.nc.close();
    }
    const { result } = await finished(run);
    expect(result.text).toBe('lead: city Lisbon');
    expect(workers.hosted).toEqual([
      { path: 'lead/asker#1', trace: call },
      { path: 'lead/asker#1', trace: call },
    ]);
    const [spawned, wakeUp] = await tasks;
    expect(w3cHeaders(spawned)).toEqual(call);
    expect(wakeUp?.json()).toMatchObject({ command: { type: 'reply', answer: 'Lisbon' } });
    expect(w3cHeaders(wakeUp)).toEqual(call);
    expect(await record(cluster.resources, run.id, 'lead/asker#1')).toMatchObject({ status: 'ended', trace: call });
  });

  it("hands an entry over from a stopping worker to another in its run's context", async () => {
    const coordinator = recorder();
    const workers = recorder();
    const slow = testGraph({ lead: { script: [{ text: 'too late', delayMs: 60_000 }] } });
    const cluster = await startCluster({
      graph: slow,
      tools,
      remoteAll: true,
      instrumentation: coordinator.instrumentation,
      worker: { instrumentation: workers.instrumentation },
    });
    // The entry's task, then the stopping worker's handover of it.
    const tasks = published(cluster, 'lead', graphHash(slow), 2);
    const run = cluster.runtime.run('go');
    await workers.until(1);
    const [first] = cluster.workers;
    await cluster.addWorker();
    await first?.stop(0);
    await workers.until(2);
    const runs = carrier(`run:${run.id}`);
    expect(workers.hosted).toEqual([
      { path: 'lead', trace: runs },
      { path: 'lead', trace: runs },
    ]);
    const [, handover] = await tasks;
    expect(handover?.json()).toMatchObject({ path: 'lead', resume: true });
    expect(w3cHeaders(handover)).toEqual(runs);
    await run.abort();
    expect((await run.result).status).toBe('aborted');
  });

  it('restores an actor spawned from its snapshot without a trace in the trace its record keeps', async () => {
    const workers = recorder();
    const coordinator = recorder();
    const asking = testGraph({
      lead: { tools: ['ask'], script: [{ toolCalls: [{ name: 'ask', arguments: { question: 'Sure?' } }] }, { text: 'you said {{lastToolResult}}' }] },
    });
    const cluster = await startCluster({
      graph: asking,
      tools,
      remoteAll: true,
      instrumentation: coordinator.instrumentation,
      worker: { instrumentation: workers.instrumentation },
    });
    const run = cluster.runtime.run('go');
    await untilWaiting(run);
    await expect.poll(() => cluster.workers.reduce((n, w) => n + w.load().parked, 0)).toBe(1);
    const snapshot = await loadSnapshot(cluster.resources, run.id, parseAgentPath('lead'));
    expect(snapshot).toBeDefined();
    // As the CLI hands its entry over: a transport that knows no trace, on the runtime's resources
    // and store, queues it from its snapshot.
    const store = cluster.runtime.store;
    const queue = createNatsTransport({
      resources: cluster.resources,
      store,
      factory: graphActorFactory(asking, { store, tools, sleep: () => Promise.resolve() }),
      graphHash: graphHash(asking),
      placement: () => 'remote',
    });
    try {
      if (snapshot !== undefined) await queue.spawn({ runId: run.id, path: parseAgentPath('lead'), agent: 'lead', depth: 0, snapshot });
    } finally {
      await queue.close();
    }
    // Restored still waiting, and set aside again: the reply wakes it once more.
    await workers.until(2);
    const runs = carrier(`run:${run.id}`);
    expect(workers.hosted[1]).toEqual({ path: 'lead', trace: runs });
    await expect.poll(() => cluster.workers.reduce((n, w) => n + w.load().parked, 0)).toBe(2);
    await run.reply('yes', parseAgentPath('lead'));
    expect((await finished(run)).result.text).toBe('you said yes');
    expect(workers.hosted).toEqual(Array.from({ length: 3 }, () => ({ path: 'lead', trace: runs })));
  });

  it('runs a task that carries no trace headers, its actor with no trace', async () => {
    const workers = recorder();
    const cluster = await startCluster({ graph: team, tools, worker: { instrumentation: workers.instrumentation } });
    const tasks = published(cluster, 'researcher', graphHash(team));
    const run = cluster.runtime.run('go');
    expect((await finished(run)).result.text).toBe('done: found it');
    const [task] = await tasks;
    expect(task?.headers?.has('traceparent')).toBe(false);
    expect(task?.headers?.has('tracestate')).toBe(false);
    expect(workers.hosted).toEqual([{ path: 'lead/researcher#1', trace: undefined }]);
    const child = await record(cluster.resources, run.id, 'lead/researcher#1');
    expect(child).toMatchObject({ status: 'ended' });
    expect(child).not.toHaveProperty('trace');
  });
});
