/**
 * A delegation's child is a one-shot actor: once it has ended and its checkpoint is stored, the
 * in-process transport lets go of it (a run of many delegations does not keep every child it had
 * in memory until the run ends), while its result still answers from the store and its trace stays
 * open until the run ends. Other actors (an entry, a pipeline step: prompted again) stay until then.
 */
import type { AgentEvent, ErrorInfo } from '@troupe/core';
import { createToolRegistry } from '@troupe/tools';
import { describe, expect, it } from 'vitest';
import { createRuntime, type HostedActor, type Instrumentation } from '../../src/index.js';
import { askTool, delegate, testGraph, untilWaiting } from '../../src/testing.js';

describe('one-shot children', () => {
  it('lets go of a delegated child once it has ended, its result still answering from the store', async () => {
    const graph = testGraph({
      lead: {
        delegates: ['helper'],
        tools: ['ask'],
        script: [{ toolCalls: [delegate('helper', 'look')] }, { toolCalls: [{ name: 'ask', arguments: { question: 'more?' } }] }, { text: 'done' }],
      },
      helper: { script: [{ text: 'found' }] },
    });
    const hosted: HostedActor[] = [];
    const ended: string[] = [];
    const instrumentation: Instrumentation = {
      run: () => ({ carrier: undefined, end: () => undefined, leave: () => undefined }),
      step: () => ({ carrier: undefined, end: (_error?: ErrorInfo) => undefined }),
      actor: (actor) => {
        hosted.push(actor);
        return { end: () => ended.push(actor.request.path) };
      },
      carrierOf: () => undefined,
    };
    const runtime = createRuntime({ graph, instrumentation, tools: createToolRegistry({ factories: [askTool] }) });
    const run = runtime.run('go');
    const events: AgentEvent[] = [];
    run.events$.subscribe((event) => events.push(event));
    // The lead asks after its child's answer: the child has ended, the run goes on.
    await untilWaiting(run);
    const child = hosted.find((actor) => actor.request.path === 'lead/helper#1');
    expect(child?.request.oneShot).toBe(true);
    expect(hosted.find((actor) => actor.request.path === 'lead')?.request.oneShot).toBeUndefined();
    // Disposed: its events are complete.
    const completed = new Promise<void>((resolve) => child?.agent.events$.subscribe({ complete: resolve }));
    await completed;
    await expect(runtime.transport.control(run.id, child?.request.path ?? ('' as never), { type: 'abort' })).rejects.toMatchObject({ code: 'unknown_actor' });
    expect(await runtime.transport.result(run.id, child?.request.path ?? ('' as never))).toMatchObject({ stopReason: 'stop', text: 'found' });
    // Its trace stays open until its run ends, as when it stayed hosted until then.
    expect(ended).toEqual([]);
    await run.reply('no');
    const result = await run.result;
    expect(result.status).toBe('done');
    expect(events.filter((e) => e.type === 'agent_end').map((e) => e.agentPath)).toEqual(['lead/helper#1', 'lead']);
    await runtime.close();
    expect(ended).toEqual(['lead', 'lead/helper#1']);
  });
});
