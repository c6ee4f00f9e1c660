/**
 * A remote delegation no live worker can take says so, on a real nats-server: the delegating call
 * emits a `tool_update` progress naming the child, the agent no live worker hosts and the command
 * that starts one (or the workers of another graph that host an agent of that name); once a worker
 * of its graph starts, the progress says who took the child and the run finishes by itself.
 * `listWorkers` answers `[]` when no worker runs at all (the server has no responder).
 */
import { createToolRegistry, type ToolFactory } from '@troupe/tools';
import type { AgentEvent } from '@troupe/core';
import { afterEach, describe, expect, it } from 'vitest';
import type { RunHandle } from '@troupe/runtime';
import { graphHash, listWorkers } from '../../src/index.js';
import { delegate, finished, testGraph } from '@troupe/runtime/testing';
import { useClusters } from '../cluster.js';

/** A latch the `gate` tool waits on, opened by the test. */
let open: () => void = () => undefined;
const gate: ToolFactory = {
  name: 'gate',
  description: 'Waits for the test.',
  create: () => ({
    name: 'gate',
    description: 'Waits until the test opens it.',
    parameters: { type: 'object', properties: {} },
    readOnly: true,
    execute: () => new Promise((resolve) => (open = () => resolve({ content: 'opened' }))),
  }),
};
const tools = createToolRegistry({ factories: [gate] });

const graph = {
  ...testGraph({
    lead: { delegates: ['researcher'], script: [{ toolCalls: [delegate('researcher', 'find')] }, { text: 'lead: {{lastToolResult}}' }] },
    researcher: { placement: 'remote', tools: ['gate'], script: [{ toolCalls: [{ name: 'gate', arguments: {} }] }, { text: 'found' }] },
  }),
  file: 'team.yaml',
};
const other = { ...graph, models: { ...graph.models, lead: { ...graph.models['lead']!, script: [{ text: 'other' }] } } };

const startCluster = useClusters();
afterEach(() => open());

/** Resolves with the first progress of the lead's delegation that matches `pattern`. */
function progress(run: RunHandle, pattern: RegExp): Promise<string> {
  return new Promise((resolve) => {
    const sub = run.events$.subscribe((event: AgentEvent) => {
      if (event.type === 'tool_update' && event.agentPath === 'lead' && event.progress !== undefined && pattern.test(event.progress)) {
        queueMicrotask(() => sub.unsubscribe());
        resolve(event.progress);
      }
    });
  });
}

describe('a delegation waiting for a worker', { timeout: 30_000 }, () => {
  it('says no live worker hosts the agent and how to start one, then who took it, and the run finishes', async () => {
    const cluster = await startCluster({ graph, tools, workers: 0 });
    expect(await listWorkers(cluster.resources.nc, cluster.resources.names.namespace)).toEqual([]);
    const run = cluster.runtime.run('go');
    const waiting = await progress(run, /^waiting for a worker/);
    expect(waiting).toBe(
      `waiting for a worker to take lead/researcher#1: no live worker hosts "researcher"; start one: troupe worker team.yaml --namespace ${cluster.resources.names.namespace}`,
    );

    const taken = progress(run, /taken by/);
    const worker = await cluster.addWorker({ id: 'late-worker' });
    expect(await taken).toBe('lead/researcher#1 taken by late-worker');
    open();
    const { result } = await finished(run);
    expect(result.text).toBe('lead: found');
    expect(worker.load()).toMatchObject({ taken: 1, ended: 1 });
  });

  it('names the workers of another graph that host an agent of that name', async () => {
    expect(graphHash(other)).not.toBe(graphHash(graph));
    const cluster = await startCluster({ graph, tools, workers: 0 });
    await cluster.addWorker({ graph: other, id: 'other-worker' });
    const run = cluster.runtime.run('go');
    expect(await progress(run, /^waiting for a worker/)).toBe(
      `waiting for a worker to take lead/researcher#1: no live worker hosts "researcher" of this graph (other-worker runs graph ${graphHash(other)}: another graph file, or another version of it); start one: troupe worker team.yaml --namespace ${cluster.resources.names.namespace}`,
    );
    const taken = progress(run, /taken by/);
    await cluster.addWorker({ id: 'own-worker' });
    expect(await taken).toBe('lead/researcher#1 taken by own-worker');
    open();
    expect((await finished(run)).result.text).toBe('lead: found');
  });
});
