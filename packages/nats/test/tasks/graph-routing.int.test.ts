/**
 * Tasks are routed per graph, on a real nats-server: two graphs with agents of the same names run
 * at once on one namespace, each with its own worker, and every task is taken by its own graph's
 * worker (regression: one consumer per agent handed a task of one graph to the other graph's
 * worker, which refused it with `graph_mismatch` although the right worker was up). A task of a
 * graph no live worker runs waits on the queue, untouched by the other graph's worker, until a
 * worker of its graph starts. A worker whose consumer the server removed (they expire when idle,
 * so those of graphs no worker runs any more go away) makes it again. A task put by hand on a
 * graph's subject with another graph's stamp is still refused.
 *
 * A worker counts a task as ended once its end record is stored, and the lead can read that record
 * first: the counts are polled.
 */
import { headers } from '@nats-io/transport-node';
import { createToolRegistry } from '@troupe/tools';
import { parseAgentPath, type AgentResult, type RunId } from '@troupe/core';
import { describe, expect, it, vi } from 'vitest';
import { graphHash, kvKey } from '../../src/index.js';
import { delegate, finished, testGraph } from '@troupe/runtime/testing';
import { useClusters, type Cluster } from '../cluster.js';

const tools = createToolRegistry({ factories: [] });
const TASKS = 6;

/** A lead delegating {@link TASKS} tasks to `researcher` (remote), which answers `answer` each time. */
function team(answer: string, file: string): ReturnType<typeof testGraph> {
  const graph = testGraph({
    lead: {
      delegates: ['researcher'],
      script: [{ toolCalls: Array.from({ length: TASKS }, (_, i) => delegate('researcher', `task ${i}`)) }, { text: 'lead: {{lastToolResult}}' }],
    },
    researcher: { placement: 'remote', script: Array.from({ length: TASKS }, () => ({ text: answer })) },
  });
  return { ...graph, file };
}

const graphA = team('from A', 'a.yaml');
const graphB = team('from B', 'b.yaml');

const startCluster = useClusters();

/** The text each researcher child of `runId` ended with. */
async function childAnswers(c: Cluster, runId: RunId): Promise<string[]> {
  const paths = Array.from({ length: TASKS }, (_, i) => parseAgentPath(`lead/researcher#${i + 1}`));
  return Promise.all(paths.map(async (path) => (await c.runtime.transport.result(runId, path)).text));
}

describe('tasks routed per graph', { timeout: 30_000 }, () => {
  it('runs two graphs with agents of the same names at once, each on its own worker', async () => {
    expect(graphHash(graphA)).not.toBe(graphHash(graphB));
    const cluster = await startCluster({ graph: graphA, tools, workers: 0 });
    const workerA = await cluster.addWorker({ graph: graphA, id: 'worker-a' });
    const workerB = await cluster.addWorker({ graph: graphB, id: 'worker-b' });
    const runtimeB = await cluster.addCoordinator(graphB);

    const [a, b] = await Promise.all([finished(cluster.runtime.run('go')), finished(runtimeB.run('go'))]);
    expect(a.status).toBe('done');
    expect(b.status).toBe('done');
    expect(a.result.text).toBe('lead: from A');
    expect(b.result.text).toBe('lead: from B');
    expect(await childAnswers(cluster, a.runId)).toEqual(Array.from({ length: TASKS }, () => 'from A'));
    expect(await childAnswers(cluster, b.runId)).toEqual(Array.from({ length: TASKS }, () => 'from B'));
    await expect.poll(() => workerA.load(), { timeout: 10_000 }).toMatchObject({ taken: TASKS, ended: TASKS });
    await expect.poll(() => workerB.load(), { timeout: 10_000 }).toMatchObject({ taken: TASKS, ended: TASKS });
  });

  it("leaves a task to its own graph's worker: it waits until one starts", async () => {
    const cluster = await startCluster({ graph: graphA, tools, workers: 0 });
    const foreign = await cluster.addWorker({ graph: graphB, id: 'worker-b' });
    const run = cluster.runtime.run('go');
    // The run's tasks are on graph A's subject, which worker-b does not consume.
    await expect.poll(async () => (await cluster.resources.jsm.streams.info(cluster.resources.names.tasksStream)).state.messages).toBe(TASKS);
    expect(foreign.load().taken).toBe(0);

    const own = await cluster.addWorker({ graph: graphA, id: 'worker-a' });
    const { result } = await finished(run);
    expect(result.text).toBe('lead: from A');
    await expect.poll(() => own.load(), { timeout: 10_000 }).toMatchObject({ taken: TASKS, ended: TASKS });
    expect(foreign.load().taken).toBe(0);
  });

  it('makes its consumer again when the server removed it (left idle past its inactive threshold)', async () => {
    const cluster = await startCluster({ graph: graphA, tools, workers: 1 });
    const { jsm, names } = cluster.resources;
    await jsm.consumers.delete(names.tasksStream, names.taskConsumer(graphHash(graphA), 'researcher'));
    const { result } = await finished(cluster.runtime.run('go'));
    expect(result.text).toBe('lead: from A');
    await expect.poll(() => cluster.workers[0]?.load(), { timeout: 10_000 }).toMatchObject({ taken: TASKS, ended: TASKS });
  });

  it('refuses a task stamped with another graph on its subject, naming both graphs', async () => {
    const cluster = await startCluster({ graph: graphA, tools, workers: 1 });
    const { requests, names } = cluster.resources;
    const stamp = headers();
    stamp.set('Troupe-Graph', graphHash(graphB));
    const task = { runId: 'run_byhand', path: 'lead/researcher#1', agent: 'researcher', depth: 1, input: 'find' };
    await requests.publish(names.taskSubject(graphHash(graphA), 'researcher'), JSON.stringify(task), { headers: stamp });
    const ended = await vi.waitFor(
      async () => {
        const entry = await cluster.resources.actors.get(kvKey('run_byhand', 'lead/researcher#1'));
        const record = entry?.json<{ status: string; result?: AgentResult }>();
        expect(record?.status).toBe('ended');
        return record?.result;
      },
      { timeout: 10_000, interval: 50 },
    );
    expect(ended?.error?.code).toBe('graph_mismatch');
    expect(ended?.error?.message).toBe(
      `worker ${cluster.workers[0]?.id} runs graph ${graphHash(graphA)} but the task for lead/researcher#1 was made for graph ${graphHash(graphB)}: start workers with the coordinator's graph file`,
    );
  });
});
