/**
 * nats-server SIGKILLed mid-run and restarted on the same port and JetStream store directory (file
 * storage) loses nothing and repeats nothing (issue #20): a lead on the coordinator hands six tasks
 * to remote children on two workers; each child runs a side-effecting tool once, then thinks a
 * while. Once every child's tool result is checkpointed, the server is killed (no graceful
 * shutdown) and started again. The coordinator and the workers reconnect by themselves; the run
 * ends done, the lead's history holds exactly one result per call, each from its own child, and
 * no child ran its tool twice. The server process's `pid` names the new process once restarted.
 */
import { textOf, type AgentPath } from '@troupe/core';
import { delegate, finished, testGraph } from '@troupe/runtime/testing';
import { createToolRegistry, type ToolFactory } from '@troupe/tools';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { loadSnapshot } from '../../src/index.js';
import { startNatsServer, type NatsServerProcess } from '../../src/testing.js';
import { startCluster, type Cluster } from '../cluster.js';

const CHILDREN = 6;
const paths = Array.from({ length: CHILDREN }, (_, i) => `lead/child#${i + 1}` as AgentPath);

/** A tool with a side effect: it counts its calls per actor, and answers with the actor's path. */
function effectTool(calls: Map<string, number>): ToolFactory {
  return {
    name: 'effect',
    description: 'Does something once.',
    create: () => ({
      name: 'effect',
      description: 'Does something once.',
      parameters: { type: 'object', properties: {} },
      readOnly: true,
      execute: (_args, ctx) => {
        calls.set(ctx.agentPath, (calls.get(ctx.agentPath) ?? 0) + 1);
        return { content: `effect of ${ctx.agentPath}` };
      },
    }),
  };
}

let server: NatsServerProcess | undefined;
let cluster: Cluster | undefined;

afterEach(async () => {
  await cluster?.close();
  await server?.stop();
  cluster = undefined;
  server = undefined;
});

describe('nats-server killed with SIGKILL mid-run', () => {
  it('comes back on the same store and the run completes, every result once', { timeout: 120_000 }, async () => {
    const calls = new Map<string, number>();
    const graph = testGraph({
      lead: {
        delegates: ['child'],
        script: [{ toolCalls: Array.from({ length: CHILDREN }, (_, i) => delegate('child', `task ${i + 1}`)) }, { text: 'all answered' }],
      },
      child: {
        placement: 'remote',
        tools: ['effect'],
        script: [{ toolCalls: [{ name: 'effect', arguments: {} }] }, { text: 'answer: {{lastToolResult}}', delayMs: 3000 }],
      },
    });
    const nats = await startNatsServer();
    server = nats;
    cluster = await startCluster({ graph, tools: createToolRegistry({ factories: [effectTool(calls)] }), workers: 2, server: nats });
    const { resources } = cluster;
    const run = cluster.runtime.run('go');

    // Every child has run its tool and stored the turn that did (a redelivered one resumes after it).
    await vi.waitFor(
      async () => {
        for (const path of paths) {
          const history = (await loadSnapshot(resources, run.id, path))?.context.messages ?? [];
          expect(
            history.some((m) => m.role === 'toolResult'),
            path,
          ).toBe(true);
        }
      },
      { timeout: 60_000, interval: 100 },
    );
    const killed = nats.pid;
    await nats.kill();
    await nats.restart();
    // Its pid names the server running now (benchmarks read its CPU time by it).
    expect(nats.pid).toBeGreaterThan(0);
    expect(nats.pid).not.toBe(killed);
    expect(() => process.kill(nats.pid!, 0)).not.toThrow();

    const { result, status } = await finished(run);
    expect(status).toBe('done');
    expect(result.text).toBe('all answered');
    expect(Object.fromEntries(calls)).toEqual(Object.fromEntries(paths.map((p) => [p, 1])));
    const lead = (await loadSnapshot(resources, run.id, 'lead' as AgentPath))?.context.messages ?? [];
    const callIds = lead.flatMap((m) => (m.role === 'assistant' ? m.content.flatMap((c) => (c.type === 'toolCall' ? [c.id] : [])) : []));
    const results = lead.flatMap((m) => (m.role === 'toolResult' ? [m] : []));
    expect(callIds).toHaveLength(CHILDREN);
    expect(results.map((r) => r.toolCallId).sort()).toEqual([...callIds].sort());
    expect(results.filter((r) => r.isError)).toEqual([]);
    expect(results.map((r) => textOf(r)).sort()).toEqual(paths.map((p) => `answer: effect of ${p}`).sort());
    expect(await cluster.runtime.store.getRun(run.id)).toMatchObject({ status: 'done', stopReason: 'stop' });
  });
});
