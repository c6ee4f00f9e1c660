/**
 * A worker cut off from NATS for longer than the ack wait (issue #20) — a network partition made
 * with a TCP proxy that stops forwarding, so the worker process goes on running and notices
 * nothing — does not finish what another worker took over: the child's task, not heartbeated any
 * more, is redelivered after the ack wait to a second worker, which resumes the child from its
 * checkpoint and ends it. When the first worker's connection comes back, whatever it did meanwhile
 * does not count: the child ended once (one `agent_end`; the first worker counts it as not ended by it), the
 * lead got one result, and its tool ran once. A call not safe to repeat (neither read-only nor
 * idempotent) that was running when the worker was cut off is not run again by the worker that takes
 * the child over: it started only once the checkpoint holding it was stored, so the restored child
 * gives it the "interrupted" result (it may have taken effect) and goes on from there.
 */
import { INTERRUPTED_BY_RESTORE, textOf, type AgentPath } from '@troupe/core';
import { delegate, finished, testGraph } from '@troupe/runtime/testing';
import type { GraphConfig } from '@troupe/runtime';
import { createToolRegistry, type ToolFactory, type ToolRegistry } from '@troupe/tools';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { connectNats, kvKey, loadSnapshot, openNatsResources, startWorker, type NatsResources, type Worker } from '../../src/index.js';
import { startNatsServer, type NatsServerProcess } from '../../src/testing.js';
import { startCluster, type Cluster } from '../cluster.js';
import { startTcpProxy, type TcpProxy } from '../tcp-proxy.js';

const ACK_WAIT_MS = 1000;
const CHILD = 'lead/child#1' as AgentPath;

/**
 * A tool `effect` that records the path of each agent that runs it. Read-only (safe to run again
 * after a restore), or not (`hangsFirst`: a side effect whose first run never finishes).
 */
function effectTool(calls: string[], kind: 'readOnly' | 'hangsFirst'): ToolFactory {
  const description = kind === 'readOnly' ? 'Does something once.' : 'Does something that must not be done twice.';
  return {
    name: 'effect',
    description,
    create: () => ({
      name: 'effect',
      description,
      parameters: { type: 'object', properties: {} },
      readOnly: kind === 'readOnly',
      execute: (_args, ctx) => {
        calls.push(ctx.agentPath);
        return kind === 'hangsFirst' && calls.length === 1 ? new Promise<never>(() => undefined) : { content: 'effect done' };
      },
    }),
  };
}

let server: NatsServerProcess | undefined;
let cluster: Cluster | undefined;
let proxy: TcpProxy | undefined;
let cutOff: { worker: Worker; resources: NatsResources } | undefined;

afterEach(async () => {
  proxy?.thaw();
  await cutOff?.worker.stop(0).catch(() => undefined);
  await cutOff?.resources.nc.close().catch(() => undefined);
  await proxy?.close();
  await cluster?.close();
  await server?.stop();
  [server, cluster, proxy, cutOff] = [undefined, undefined, undefined, undefined];
});

/** A cluster with no worker of its own, and the only worker `cut-off`, connected through a proxy the test can freeze. */
async function startCutOff(
  graph: GraphConfig,
  tools: ToolRegistry,
): Promise<{ cluster: Cluster; resources: NatsResources; viaProxy: NatsResources; proxy: TcpProxy }> {
  const nats = await startNatsServer();
  server = nats;
  cluster = await startCluster({ graph, tools, workers: 0, server: nats, worker: { ackWaitMs: ACK_WAIT_MS } });
  const { resources } = cluster;
  proxy = await startTcpProxy(nats.port);
  const namespace = resources.names.namespace;
  const viaProxy = await openNatsResources(await connectNats({ servers: proxy.url }), { namespace });
  cutOff = { worker: await startWorker({ graph, tools, ackWaitMs: ACK_WAIT_MS, id: 'cut-off', resources: viaProxy }), resources: viaProxy };
  return { cluster, resources, viaProxy, proxy };
}

/** A lead delegating once to a remote child that calls `effect`, then answers with `answer`. */
function leadAndRemoteChild(answer: { text: string; delayMs?: number }, permissions?: { mode: 'allow' }): GraphConfig {
  return testGraph({
    lead: { delegates: ['child'], script: [{ toolCalls: [delegate('child', 'work')] }, { text: 'lead: {{lastToolResult}}' }] },
    child: {
      placement: 'remote',
      tools: ['effect'],
      ...(permissions === undefined ? {} : { permissions }),
      script: [{ toolCalls: [{ name: 'effect', arguments: {} }] }, answer],
    },
  });
}

describe('a worker cut off for longer than the ack wait', () => {
  it('has its task taken over by another worker and does not also finish it', { timeout: 120_000 }, async () => {
    const calls: string[] = [];
    const tools = createToolRegistry({ factories: [effectTool(calls, 'readOnly')] });
    const graph = leadAndRemoteChild({ text: 'child answered', delayMs: 3000 });
    const rig = await startCutOff(graph, tools);
    const { resources, viaProxy } = rig;

    const run = rig.cluster.runtime.run('go');
    const record = async () => {
      const entry = await resources.actors.get(kvKey(run.id, CHILD));
      return entry === null || entry.operation !== 'PUT' ? undefined : (entry.json() as { status: string; host?: string });
    };
    // The child runs on the only worker, and has stored the turn that ran its tool: it is thinking.
    await vi.waitFor(
      async () => {
        expect(await record()).toMatchObject({ status: 'running', host: 'cut-off' });
        const history = (await loadSnapshot(resources, run.id, CHILD))?.context.messages ?? [];
        expect(history.some((m) => m.role === 'toolResult')).toBe(true);
      },
      { timeout: 30_000, interval: 100 },
    );
    rig.proxy.freeze();
    const other = await rig.cluster.addWorker({ id: 'other', ackWaitMs: ACK_WAIT_MS });

    const { result, status } = await finished(run);
    expect(status).toBe('done');
    expect(result.text).toBe('lead: child answered');
    expect(await record()).toMatchObject({ status: 'ended' });
    expect(other.load()).toMatchObject({ taken: 1, ended: 1 });

    // The partition heals; the cut-off worker's child, still thinking there, must not end the child again.
    rig.proxy.thaw();
    await vi.waitFor(() => expect(cutOff?.worker.load().running).toBe(0), { timeout: 30_000, interval: 100 });
    await viaProxy.nc.flush();
    await rig.cluster.runtime.store.flush(run.id);
    const events = await rig.cluster.runtime.store.readEvents(run.id);
    expect(events.filter((e) => e.type === 'agent_end' && e.agentPath === CHILD)).toHaveLength(1);
    expect(await record()).toMatchObject({ status: 'ended', result: { text: 'child answered' } });
    expect(cutOff?.worker.load()).toMatchObject({ taken: 1, ended: 0 });
    expect(calls).toEqual([CHILD]);
    const lead = (await loadSnapshot(resources, run.id, 'lead' as AgentPath))?.context.messages ?? [];
    expect(lead.filter((m) => m.role === 'toolResult').map(textOf)).toEqual(['child answered']);
  });

  it('has a call not safe to repeat, running when it was cut off, not run again by the worker that takes over: the child is told it was interrupted', {
    timeout: 120_000,
  }, async () => {
    const calls: string[] = [];
    const tools = createToolRegistry({ factories: [effectTool(calls, 'hangsFirst')] });
    const graph = leadAndRemoteChild({ text: 'child: {{lastToolResult}}' }, { mode: 'allow' });
    const rig = await startCutOff(graph, tools);
    const run = rig.cluster.runtime.run('go');
    // The call runs on the only worker (and never finishes there); it started once its checkpoint was stored.
    await vi.waitFor(() => expect(calls).toEqual([CHILD]), { timeout: 30_000, interval: 50 });
    expect((await loadSnapshot(rig.resources, run.id, CHILD))?.state).toBe('tool_executing');
    rig.proxy.freeze();
    const other = await rig.cluster.addWorker({ id: 'other', ackWaitMs: ACK_WAIT_MS });

    const { result, status } = await finished(run);
    expect(status).toBe('done');
    expect(result.text).toBe(`lead: child: ${INTERRUPTED_BY_RESTORE}`);
    expect(calls).toEqual([CHILD]);
    expect(other.load()).toMatchObject({ taken: 1, ended: 1 });
    const child = (await loadSnapshot(rig.resources, run.id, CHILD))?.context.messages ?? [];
    expect(child.filter((m) => m.role === 'toolResult').map((m) => [textOf(m), m.role === 'toolResult' && m.isError])).toEqual([
      [INTERRUPTED_BY_RESTORE, true],
    ]);
  });
});
