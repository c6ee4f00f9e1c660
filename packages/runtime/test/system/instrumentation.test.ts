/**
 * The instrumentation port: the runtime opens a scope per run and per pipeline step, follows every
 * actor it hosts from its start until it is let go, and carries each scope's context to what it
 * starts: the entry gets the run's, a delegated child its delegating tool call's, a step actor its
 * step's. A run's end reaches its scope once, with the run's status and usage.
 */
import type { AgentPath, ErrorInfo, RunId } from '@troupe/core';
import { describe, expect, it, vi } from 'vitest';
import { createMemoryRunStore, createRuntime, type HostedActor, type Instrumentation, type TraceCarrier, type TracedRunEnd } from '../../src/index.js';
import { createToolRegistry } from '@troupe/tools';
import { askTool, delegate, testGraph, untilWaiting } from '../../src/testing.js';

/** An instrumentation that names each scope and records what happened, in order. */
function recorder(): { instrumentation: Instrumentation; log: string[]; hosted: HostedActor[] } {
  const log: string[] = [];
  const hosted: HostedActor[] = [];
  const carrier = (name: string): TraceCarrier => ({ traceparent: name });
  const instrumentation: Instrumentation = {
    run: (run) => {
      log.push(`run ${run.entry} ${run.kind}${run.resumed ? ` resumed in ${run.parent?.['traceparent'] ?? '-'}` : ''}`);
      return {
        carrier: carrier(`run:${run.runId}`),
        end: (result: TracedRunEnd) => log.push(`run end ${result.status} ${result.usage.output}`),
        leave: (status) => log.push(`run left ${status}`),
      };
    },
    step: (step) => {
      log.push(`step ${step.path} ${step.kind} in ${step.parent?.['traceparent'] ?? '-'}`);
      return {
        carrier: carrier(`step:${step.path}`),
        end: (error?: ErrorInfo) => log.push(`step end ${step.path}${error === undefined ? '' : ` ${error.code}`}`),
      };
    },
    actor: (actor) => {
      hosted.push(actor);
      log.push(`actor ${actor.request.path} in ${actor.request.trace?.['traceparent'] ?? '-'}`);
      return { end: () => log.push(`actor end ${actor.request.path}`) };
    },
    carrierOf: (_runId: RunId, path: AgentPath, toolCallId: string) => carrier(`tool:${path}:${toolCallId}`),
  };
  return { instrumentation, log, hosted };
}

describe('instrumentation', () => {
  it('gives the entry its run scope and a delegated child its tool call scope, and ends the run once', async () => {
    const graph = testGraph({
      lead: { script: [{ toolCalls: [{ id: 'c1', ...delegate('helper', 'look') }] }, { text: 'done' }], delegates: ['helper'] },
      helper: { script: [{ text: 'found' }] },
    });
    const { instrumentation, log } = recorder();
    const runtime = createRuntime({ graph, instrumentation });
    const run = runtime.run('go');
    const result = await run.result;
    expect(result.status).toBe('done');
    await runtime.close();
    const runId = run.id;
    expect(log).toEqual([
      'run lead agent',
      `actor lead in run:${runId}`,
      'actor lead/helper#1 in tool:lead:c1',
      `run end done ${result.usage.output}`,
      'actor end lead',
      'actor end lead/helper#1',
    ]);
  });

  it('opens a scope per pipeline step, in which its actors start, and ends a failed step with its error', async () => {
    const graph = testGraph({ writer: { script: [{ text: 'draft' }] }, broken: { script: [{ error: { kind: 'invalid_request', message: 'down' } }] } });
    graph.pipelines = {
      flow: {
        name: 'flow',
        steps: [
          { kind: 'agent', id: 'draft', agent: 'writer', input: '{{input}}' },
          { kind: 'agent', id: 'check', agent: 'broken', input: '{{steps.draft.output}}' },
        ],
      },
    };
    graph.entry = 'flow';
    const { instrumentation, log } = recorder();
    const runtime = createRuntime({ graph, instrumentation });
    const run = runtime.run('cats');
    const result = await run.result;
    expect(result.status).toBe('failed');
    await runtime.close();
    const runId = run.id;
    expect(log.filter((line) => !line.startsWith('actor end'))).toEqual([
      'run flow pipeline',
      `step flow/draft agent in run:${runId}`,
      'actor flow/draft in step:flow/draft',
      'step end flow/draft',
      `step flow/check agent in run:${runId}`,
      'actor flow/check in step:flow/check',
      'step end flow/check provider_error',
      `run end failed ${result.usage.output}`,
    ]);
  });

  it('follows an actor until its host lets it go: once its run has ended, not before, and once', async () => {
    const graph = testGraph({ lead: { script: [{ text: 'hi' }] } });
    const { instrumentation, log, hosted } = recorder();
    const runtime = createRuntime({ graph, instrumentation });
    const run = runtime.run('go');
    run.events$.subscribe((event) => {
      if (event.type === 'agent_end') expect(log).not.toContain('actor end lead');
    });
    await run.result;
    // A finished run's actors leave the host (and memory), so a span of theirs holds nothing until close.
    await vi.waitFor(() => expect(log).toContain('actor end lead'), { timeout: 20_000 });
    await runtime.close();
    expect(log.filter((line) => line === 'actor end lead')).toHaveLength(1);
    expect(hosted[0]?.agent.state).toBe('done');
  });

  it('leaves a run still waiting when the runtime closes, and resumes it in the context it recorded', async () => {
    const graph = testGraph({ lead: { tools: ['ask'], script: [{ toolCalls: [{ name: 'ask', arguments: { question: 'Where?' } }] }, { text: 'ok' }] } });
    const tools = createToolRegistry({ factories: [askTool] });
    const store = createMemoryRunStore();
    const first = recorder();
    const before = createRuntime({ graph, tools, store, instrumentation: first.instrumentation });
    const run = before.run('go');
    await untilWaiting(run);
    await before.close();
    expect(first.log).toEqual(['run lead agent', `actor lead in run:${run.id}`, 'run left waiting', 'actor end lead']);
    expect((await store.getRun(run.id))?.trace).toEqual({ traceparent: `run:${run.id}` });

    const second = recorder();
    const after = createRuntime({ graph, tools, store, instrumentation: second.instrumentation });
    const resumed = await after.resume(run.id);
    await resumed.reply('here');
    expect((await resumed.result).status).toBe('done');
    await after.close();
    expect(second.log.slice(0, 2)).toEqual([`run lead agent resumed in run:${run.id}`, `actor lead in run:${run.id}`]);
  });
});
