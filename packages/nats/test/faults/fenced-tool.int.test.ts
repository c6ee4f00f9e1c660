/**
 * A tool call that is not safe to repeat, running on a worker cut off from NATS for longer than
 * the ack wait, is not run again by the worker that takes the child over: the call started only
 * once the checkpoint holding it was stored, so the child is restored in `tool_executing` and
 * gets the "interrupted" result for it (it may have taken effect) instead of a second run. The
 * model goes on from there, and the lead gets the child's answer once.
 */
import { INTERRUPTED_BY_RESTORE, textOf, type AgentPath } from '@troupe/core';
import { delegate, finished, testGraph } from '@troupe/runtime/testing';
import { createToolRegistry, type ToolFactory } from '@troupe/tools';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { connectNats, kvKey, loadSnapshot, openNatsResources, startWorker, type NatsResources, type Worker } from '../../src/index.js';
import { startNatsServer, type NatsServerProcess } from '../../src/testing.js';
import { startCluster, type Cluster } from '../cluster.js';
import { startTcpProxy, type TcpProxy } from '../tcp-proxy.js';

const ACK_WAIT_MS = 1000;
const CHILD = 'lead/child#1' as AgentPath;

/** A side effect (neither read-only nor idempotent) that records each run; its first run never finishes. */
function effectTool(calls: string[]): ToolFactory {
  return {
    name: 'effect',
    description: 'Does something that must not be done twice.',
    create: () => ({
      name: 'effect',
      description: 'Does something that must not be done twice.',
      parameters: { type: 'object', properties: {} },
      execute: (_args, ctx) => {
        calls.push(ctx.agentPath);
        return calls.length === 1 ? new Promise<never>(() => undefined) : { content: 'effect done' };
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

describe('a call not safe to repeat, running on a worker that is cut off', () => {
  it('is not run again by the worker that takes the child over: the child is told it was interrupted', { timeout: 120_000 }, async () => {
    const calls: string[] = [];
    const tools = createToolRegistry({ factories: [effectTool(calls)] });
    const graph = testGraph({
      lead: { delegates: ['child'], script: [{ toolCalls: [delegate('child', 'work')] }, { text: 'lead: {{lastToolResult}}' }] },
      child: {
        placement: 'remote',
        tools: ['effect'],
        permissions: { mode: 'allow' },
        script: [{ toolCalls: [{ name: 'effect', arguments: {} }] }, { text: 'child: {{lastToolResult}}' }],
      },
    });
    const nats = await startNatsServer();
    server = nats;
    cluster = await startCluster({ graph, tools, workers: 0, server: nats, worker: { ackWaitMs: ACK_WAIT_MS } });
    const { resources } = cluster;
    proxy = await startTcpProxy(nats.port);
    const namespace = resources.names.namespace;
    const viaProxy = await openNatsResources(await connectNats({ servers: proxy.url }), { namespace });
    cutOff = { worker: await startWorker({ graph, tools, ackWaitMs: ACK_WAIT_MS, id: 'cut-off', resources: viaProxy }), resources: viaProxy };

    const run = cluster.runtime.run('go');
    // The child's tool runs on the only worker (and never finishes there).
    await vi.waitFor(() => expect(calls).toEqual([CHILD]), { timeout: 30_000, interval: 50 });
    const stored = await loadSnapshot(resources, run.id, CHILD);
    expect(stored?.state).toBe('tool_executing');
    proxy.freeze();
    const other = await cluster.addWorker({ id: 'other', ackWaitMs: ACK_WAIT_MS });

    const { result, status } = await finished(run);
    expect(status).toBe('done');
    expect(result.text).toBe(`lead: child: ${INTERRUPTED_BY_RESTORE}`);
    expect(calls).toEqual([CHILD]);
    expect(other.load()).toMatchObject({ taken: 1, ended: 1 });
    const record = await resources.actors.get(kvKey(run.id, CHILD));
    expect(record?.json()).toMatchObject({ status: 'ended' });
    const child = (await loadSnapshot(resources, run.id, CHILD))?.context.messages ?? [];
    expect(child.filter((m) => m.role === 'toolResult').map((m) => [textOf(m), m.role === 'toolResult' && m.isError])).toEqual([
      [INTERRUPTED_BY_RESTORE, true],
    ]);
  });
});
