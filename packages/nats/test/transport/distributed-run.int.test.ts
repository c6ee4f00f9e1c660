/**
 * Runs across workers on a real nats-server: remote delegations, a child waiting for a user put
 * aside and woken by a reply, abort of a remote subtree, and a task dead-lettered after too many
 * deliveries. (Tasks of another graph: graph-routing.int.test.ts.)
 */
import type { AgentEvent } from '@troupe/core';
import { createToolRegistry } from '@troupe/tools';
import { describe, expect, it } from 'vitest';
import type { RunHandle } from '@troupe/runtime';
import { askTool, delegate, finished, testGraph, untilWaiting } from '@troupe/runtime/testing';
import { useClusters } from '../cluster.js';

const tools = createToolRegistry({ factories: [askTool] });

const team = testGraph({
  lead: {
    delegates: ['researcher', 'writer'],
    script: [
      { toolCalls: [delegate('researcher', 'find A'), delegate('researcher', 'find B'), delegate('writer', 'draft')] },
      { text: 'done: {{lastToolResult}}' },
    ],
  },
  researcher: { placement: 'remote', script: [{ text: 'found it' }, { text: 'found it' }] },
  writer: { placement: 'remote', script: [{ text: 'drafted' }] },
});

const startCluster = useClusters();

function collect(run: RunHandle): AgentEvent[] {
  const events: AgentEvent[] = [];
  run.events$.subscribe((e) => events.push(e));
  return events;
}

describe('distributed runs', () => {
  it('runs remote delegations on workers and streams their events to the coordinator', async () => {
    const cluster = await startCluster({ graph: team, tools, workers: 2 });
    const run = cluster.runtime.run('go');
    const events = collect(run);
    const { result, status } = await finished(run);
    expect(status).toBe('done');
    expect(result.text).toBe('done: drafted');
    const ends = events
      .filter((e) => e.type === 'agent_end')
      .map((e) => e.agentPath)
      .sort();
    expect(ends).toEqual(['lead', 'lead/researcher#1', 'lead/researcher#2', 'lead/writer#1']);
    const taken = cluster.workers.reduce((n, w) => n + w.load().taken, 0);
    expect(taken).toBe(3);
    const record = await cluster.runtime.store.getRun(run.id);
    expect(record).toMatchObject({ status: 'done', stopReason: 'stop' });
  });

  it('puts a remote child waiting for a user aside and wakes it on a worker with the reply', async () => {
    const graph = testGraph({
      lead: { delegates: ['asker'], script: [{ toolCalls: [delegate('asker', 'ask them')] }, { text: 'lead: {{lastToolResult}}' }] },
      asker: {
        placement: 'remote',
        tools: ['ask'],
        script: [{ toolCalls: [{ name: 'ask', arguments: { question: 'Which city?' } }] }, { text: 'city {{lastToolResult}}' }],
      },
    });
    const cluster = await startCluster({ graph, tools, workers: 2 });
    const run = cluster.runtime.run('go');
    await untilWaiting(run);
    expect(run.waiting).toMatchObject([{ path: 'lead/asker#1', input: { kind: 'question', question: 'Which city?' } }]);
    // The worker acked the task and let the actor go: nothing runs while it waits.
    await expect.poll(() => cluster.workers.reduce((n, w) => n + w.load().parked, 0)).toBe(1);
    expect(cluster.workers.every((w) => w.load().running === 0)).toBe(true);
    await run.reply('Lisbon', 'lead/asker#1');
    const { result } = await finished(run);
    expect(result.text).toBe('lead: city Lisbon');
  });

  it('runs no more tasks at once than its concurrency, taking a burst in batches', async () => {
    const tasks = 8;
    const burst = testGraph({
      lead: { delegates: ['helper'], script: [{ toolCalls: Array.from({ length: tasks }, (_, i) => delegate('helper', `task ${i}`)) }, { text: 'done' }] },
      helper: { placement: 'remote', script: Array.from({ length: tasks }, () => ({ text: 'ok', delayMs: 40 })) },
    });
    const cluster = await startCluster({ graph: burst, tools, worker: { concurrency: 3, agents: ['helper'] } });
    const run = cluster.runtime.run('go');
    const events = collect(run);
    expect((await run.result).status).toBe('done');
    // One worker publishes its actors' events in order: starts not yet ended are the tasks it runs at once.
    let running = 0;
    let peak = 0;
    for (const event of events.filter((e) => e.agentPath !== 'lead')) {
      if (event.type === 'agent_start') peak = Math.max(peak, ++running);
      if (event.type === 'agent_end') running -= 1;
    }
    expect(peak).toBe(3);
    expect(events.filter((e) => e.type === 'agent_end' && e.agentPath !== 'lead')).toHaveLength(tasks);
    expect(cluster.workers[0]?.load()).toMatchObject({ taken: tasks, ended: tasks, running: 0 });
  });

  it('aborts a remote subtree from the coordinator', async () => {
    const graph = testGraph({
      lead: { delegates: ['sleeper'], script: [{ toolCalls: [delegate('sleeper', 'sleep')] }, { text: 'never' }] },
      sleeper: { placement: 'remote', script: [{ text: 'late', delayMs: 60_000 }] },
    });
    const cluster = await startCluster({ graph, tools, workers: 1 });
    const run = cluster.runtime.run('go');
    const started = new Promise<void>((resolve) => run.events$.subscribe((e) => e.type === 'turn_start' && e.agentPath === 'lead/sleeper#1' && resolve()));
    await started;
    await run.abort();
    const outcome = await run.result;
    expect(outcome.status).toBe('aborted');
    const child = await cluster.runtime.transport.result(run.id, 'lead/sleeper#1' as never);
    expect(child.stopReason).toBe('aborted');
  });

  it('moves a task delivered more than maxDeliver times to the dead-letter subject and fails the delegation', { timeout: 20_000 }, async () => {
    const graph = testGraph({
      lead: { delegates: ['sleeper'], script: [{ toolCalls: [delegate('sleeper', 'sleep')] }, { text: 'lead saw: {{lastToolResult}}' }] },
      sleeper: { placement: 'remote', script: [{ text: 'late', delayMs: 60_000 }] },
    });
    const cluster = await startCluster({ graph, tools, workers: 1, worker: { maxDeliver: 1, ackWaitMs: 1000 } });
    const run = cluster.runtime.run('go');
    await new Promise<void>((resolve) => run.events$.subscribe((e) => e.type === 'turn_start' && e.agentPath === 'lead/sleeper#1' && resolve()));
    // The worker dies mid-task: the task comes back after its ack wait, and that second delivery is one too many.
    await cluster.crash(cluster.workers[0]!);
    const second = await cluster.addWorker();
    const { result } = await finished(run);
    expect(result.text).toMatch(/^lead saw: sleeper failed: the task for lead\/sleeper#1 was delivered once without finishing/);
    expect(second.load().deadLettered).toBe(1);
    const { jsm, names } = cluster.resources;
    const dead = await jsm.streams.getMessage(names.deadStream, { last_by_subj: names.deadSubject('sleeper') });
    expect(dead?.json<{ task: { path: string } }>().task.path).toBe('lead/sleeper#1');
  });
});
