/**
 * Delegation in one process: an agent with `delegates` gets a `delegate_to_<name>` tool that
 * spawns a child actor at `<parent>/<name>#n`, streams the child's events into the run with the
 * child's path, and returns the child's final text as the tool result (its error text when it
 * failed). Several delegations of one turn run concurrently; `maxDepth` bounds recursion; a
 * failed child is retried per the supervision policy; aborting the run aborts the subtree. A child
 * without limits has its own default turn cap (50 model calls), however the parent is capped, and
 * the notice of the limit that stopped it is what its parent gets back.
 */
import type { AgentEvent, ToolResultMessage } from '@troupe/core';
import { SimulatedClock } from '@troupe/core/testing';
import { describe, expect, it } from 'vitest';
import { createMemoryRunStore, createRuntime, type RunStore } from '../../src/index.js';
import { delegate, finished, testGraph } from '../../src/testing.js';

function toolResults(messages: readonly { role: string }[]): ToolResultMessage[] {
  return messages.filter((m): m is ToolResultMessage => m.role === 'toolResult');
}

describe('delegation', () => {
  it('runs a child actor and returns its final text as the tool result', async () => {
    const graph = testGraph({
      lead: { delegates: ['researcher'], script: [{ toolCalls: [delegate('researcher', 'find facts')] }, { text: 'Summary: {{lastToolResult}}' }] },
      researcher: { description: 'finds facts', script: [{ text: 'the sky is blue' }] },
    });
    const runtime = createRuntime({ graph });
    const run = runtime.run('tell me about the sky');
    const events: AgentEvent[] = [];
    run.events$.subscribe((e) => events.push(e));
    const { status, result, usage } = await finished(run);
    expect(status).toBe('done');
    expect(result.text).toBe('Summary: the sky is blue');
    expect(toolResults(result.messages)[0]).toMatchObject({
      toolName: 'delegate_to_researcher',
      isError: false,
      details: { path: 'lead/researcher#1', stopReason: 'stop' },
    });
    // The child's events are part of the run, tagged with its path and the run's id.
    const childEvents = events.filter((e) => e.agentPath === 'lead/researcher#1');
    expect(childEvents.map((e) => e.type)).toContain('agent_end');
    expect(new Set(events.map((e) => e.runId))).toEqual(new Set([run.id]));
    // The child saw its task as its prompt; the run's usage covers both actors.
    expect(usage.totalTokens).toBeGreaterThan(result.usage.totalTokens);
    await runtime.close();
  });

  it('gives a delegated child its own default turn cap', async () => {
    const loop = Array.from({ length: 60 }, () => ({ toolCalls: [{ name: 'echo', arguments: { text: 'again' } }] }));
    const graph = testGraph({
      lead: {
        delegates: ['looper'],
        limits: { maxTurns: Infinity },
        script: [{ toolCalls: [delegate('looper', 'loop')] }, { text: 'Child said: {{lastToolResult}}' }],
      },
      looper: { tools: ['echo'], script: loop },
    });
    const runtime = createRuntime({ graph });
    const run = runtime.run('go');
    const childEnd = new Promise<AgentEvent>((resolve) =>
      run.events$.subscribe((e) => e.type === 'agent_end' && e.agentPath === 'lead/looper#1' && resolve(e)),
    );
    const { result } = await finished(run);
    expect(await childEnd).toMatchObject({ result: { stopReason: 'limit', turns: 50, limit: { kind: 'maxTurns', limit: 50 } } });
    expect(result.stopReason).toBe('stop');
    expect(result.text).toBe('Child said: Maximum conversation iterations reached (50 model calls).');
    await runtime.close();
  });

  it("records a child's outcome in the background, reporting a failed write without failing the run", async () => {
    const graph = testGraph({
      lead: { delegates: ['researcher'], script: [{ toolCalls: [delegate('researcher', 'find facts')] }, { text: 'Summary: {{lastToolResult}}' }] },
      researcher: { script: [{ text: 'the sky is blue' }] },
    });
    const memory = createMemoryRunStore();
    const refused = new Error('the store refused the outcome');
    // The outcome's write never lands: the parent goes on without waiting for it, and hears of its failure.
    const store: RunStore = { ...memory, saveChild: (id, child) => (child.outcome === undefined ? memory.saveChild(id, child) : Promise.reject(refused)) };
    const errors: unknown[] = [];
    const runtime = createRuntime({ graph, store, onError: (error) => errors.push(error) });
    const { status, result } = await finished(runtime.run('tell me about the sky'));
    expect(status).toBe('done');
    expect(result.text).toBe('Summary: the sky is blue');
    expect(errors).toEqual([refused]);
    expect(await memory.children(result.runId)).toMatchObject([{ path: 'lead/researcher#1', task: 'find facts' }]);
    await runtime.close();
  });

  it('runs several delegations of one turn concurrently, numbering the children', async () => {
    const clock = new SimulatedClock();
    const graph = testGraph({
      lead: { delegates: ['worker'], script: [{ toolCalls: [delegate('worker', 'a'), delegate('worker', 'b'), delegate('worker', 'c')] }, { text: 'done' }] },
      worker: { script: [{ text: 'finished', delayMs: 1000 }] },
    });
    const runtime = createRuntime({ graph, clock });
    const run = runtime.run('go');
    const started: string[] = [];
    run.events$.subscribe((e) => e.type === 'agent_start' && started.push(e.agentPath));
    // All three children wait on their 1 s delay at the same time: one second finishes them all.
    while (started.length < 4) await clock.advance(0);
    await clock.advance(1000);
    const { result } = await finished(run);
    expect(started.slice(1).sort()).toEqual(['lead/worker#1', 'lead/worker#2', 'lead/worker#3']);
    expect(toolResults(result.messages).map((r) => r.isError)).toEqual([false, false, false]);
  });

  it('starts the children of one turn in call order, even when the store answers reads out of order', async () => {
    const graph = testGraph({
      lead: { delegates: ['researcher', 'critic'], script: [{ toolCalls: [delegate('researcher', 'find'), delegate('critic', 'judge')] }, { text: 'done' }] },
      researcher: { script: [{ text: 'found' }] },
      critic: { script: [{ text: 'judged' }] },
    });
    // A store whose reads of a parent's children finish last-asked first (as a busy file store's may).
    const memory = createMemoryRunStore();
    const reads: (() => void)[] = [];
    const store: RunStore = Object.assign(Object.create(memory) as RunStore, {
      children: (...args: Parameters<RunStore['children']>) =>
        new Promise<Awaited<ReturnType<RunStore['children']>>>((resolve) => {
          reads.unshift(() => void memory.children(...args).then(resolve));
          queueMicrotask(() => {
            for (const read of reads.splice(0)) read();
          });
        }),
    });
    const runtime = createRuntime({ graph, store });
    const run = runtime.run('go');
    const started: string[] = [];
    run.events$.subscribe((e) => e.type === 'agent_start' && started.push(e.agentPath));
    await finished(run);
    expect(started).toEqual(['lead', 'lead/researcher#1', 'lead/critic#1']);
    await runtime.close();
  });

  it('returns the child error text when a child fails, after the supervision retries', async () => {
    const clock = new SimulatedClock();
    const graph = testGraph({
      lead: {
        delegates: ['flaky'],
        supervision: { retries: 1, backoffMs: 500 },
        script: [{ toolCalls: [delegate('flaky', 'try')] }, { text: '{{lastToolResult}}' }],
      },
      flaky: { script: [{ error: { kind: 'auth', message: 'no key for flaky' } }] },
    });
    const runtime = createRuntime({ graph, clock });
    const run = runtime.run('go');
    const starts: string[] = [];
    run.events$.subscribe((e) => e.type === 'agent_start' && starts.push(e.agentPath));
    while (starts.length < 2) await clock.advance(0);
    await clock.advance(500);
    const { result } = await finished(run);
    expect(starts).toEqual(['lead', 'lead/flaky#1', 'lead/flaky#2']);
    const [failure] = toolResults(result.messages);
    expect(failure?.isError).toBe(true);
    expect(failure?.content).toEqual([{ type: 'text', text: 'flaky failed: no key for flaky' }]);
  });

  it('refuses to delegate past maxDepth', async () => {
    const graph = testGraph({
      echo: { delegates: ['echo'], maxDepth: 2, script: [{ toolCalls: [delegate('echo', 'again')] }, { text: 'bottom: {{lastToolResult}}' }] },
    });
    const run = createRuntime({ graph }).run('go');
    const paths = new Set<string>();
    run.events$.subscribe((e) => paths.add(e.agentPath));
    const { result } = await finished(run);
    expect([...paths]).toEqual(['echo', 'echo/echo#1', 'echo/echo#1/echo#1']);
    expect(result.text).toContain('bottom:');
  });

  it('aborts the whole subtree when the run is aborted', async () => {
    const clock = new SimulatedClock();
    const graph = testGraph({
      lead: { delegates: ['mid'], script: [{ toolCalls: [delegate('mid', 'go deeper')] }, { text: 'never' }] },
      mid: { delegates: ['leaf'], script: [{ toolCalls: [delegate('leaf', 'wait')] }, { text: 'never' }] },
      leaf: { script: [{ text: 'too late', delayMs: 60_000 }] },
    });
    const runtime = createRuntime({ graph, clock });
    const run = runtime.run('go');
    const ends = new Map<string, string>();
    const started: string[] = [];
    run.events$.subscribe((e) => {
      if (e.type === 'agent_start') started.push(e.agentPath);
      if (e.type === 'agent_end') ends.set(e.agentPath, e.result.stopReason);
    });
    while (started.length < 3) await clock.advance(0);
    await run.abort();
    const { status } = await finished(run);
    expect(status).toBe('aborted');
    await clock.advance(0);
    expect(Object.fromEntries(ends)).toEqual({ 'lead/mid#1/leaf#1': 'aborted', 'lead/mid#1': 'aborted', lead: 'aborted' });
  });
});
