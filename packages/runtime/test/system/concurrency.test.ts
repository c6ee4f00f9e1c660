/**
 * An agent's `concurrency` caps how many of its actors run at once in one process: further ones
 * are accepted (addressable, abortable) but start when a slot frees; an actor waiting for a user
 * gives its slot back.
 */
import type { AgentEvent } from '@troupe/core';
import { createToolRegistry } from '@troupe/tools';
import { describe, expect, it } from 'vitest';
import { createRuntime } from '../../src/index.js';
import { askTool, delegate, finished, testGraph } from '../../src/testing.js';

/** The most actors of `agent` running at once, from the run's events. */
function peak(events: readonly AgentEvent[], agent: string): number {
  let running = 0;
  let most = 0;
  for (const e of events) {
    if (!e.agentPath.includes(`/${agent}#`)) continue;
    if (e.type === 'agent_start') most = Math.max(most, ++running);
    if (e.type === 'agent_end') running -= 1;
  }
  return most;
}

describe('concurrency', () => {
  it('runs at most `concurrency` actors of an agent at once, and all of them in the end', async () => {
    const graph = testGraph({
      lead: { delegates: ['worker'], script: [{ toolCalls: [1, 2, 3, 4].map((n) => delegate('worker', `job ${n}`)) }, { text: 'all done' }] },
      worker: { concurrency: 2, script: [{ text: 'done', delayMs: 20 }] },
    });
    const run = createRuntime({ graph }).run('go');
    const events: AgentEvent[] = [];
    run.events$.subscribe((e) => events.push(e));
    const { result } = await finished(run);
    expect(result.text).toBe('all done');
    expect(events.filter((e) => e.type === 'agent_end' && e.agentPath.includes('/worker#'))).toHaveLength(4);
    expect(peak(events, 'worker')).toBe(2);
  });

  it('lets an actor waiting for a user give its slot to the next one', async () => {
    const graph = testGraph({
      lead: { delegates: ['asker'], script: [{ toolCalls: [delegate('asker', 'one'), delegate('asker', 'two')] }, { text: 'both answered' }] },
      asker: { concurrency: 1, tools: ['ask'], script: [{ toolCalls: [{ name: 'ask', arguments: { question: 'ok?' } }] }, { text: 'got {{lastToolResult}}' }] },
    });
    const run = createRuntime({ graph, tools: createToolRegistry({ factories: [askTool] }) }).run('go');
    // Both ask at once: the first one's wait freed the only slot for the second.
    await new Promise<void>((resolve) => {
      const sub = run.events$.subscribe(() => {
        if (run.waiting.length === 2) {
          queueMicrotask(() => sub.unsubscribe());
          resolve();
        }
      });
    });
    for (const { path } of run.waiting) await run.reply('yes', path);
    const { result } = await finished(run);
    expect(result.text).toBe('both answered');
  });

  it('aborts an actor still waiting for a slot', async () => {
    const graph = testGraph({
      lead: { delegates: ['sleeper'], script: [{ toolCalls: [delegate('sleeper', 'a'), delegate('sleeper', 'b')] }, { text: 'never' }] },
      sleeper: { concurrency: 1, script: [{ text: 'late', delayMs: 60_000 }] },
    });
    const runtime = createRuntime({ graph });
    const run = runtime.run('go');
    await new Promise<void>((resolve) => run.events$.subscribe((e) => e.type === 'turn_start' && e.agentPath === 'lead/sleeper#1' && resolve()));
    await run.abort();
    expect((await run.result).status).toBe('aborted');
    expect(await runtime.transport.result(run.id, 'lead/sleeper#2' as never)).toMatchObject({ stopReason: 'aborted' });
  });
});
