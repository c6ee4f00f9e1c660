/**
 * Pipelines: steps run in order with templated inputs; `parallel` fans out and collects every
 * result; `map` runs one actor per item of a JSON list with bounded concurrency; an agent can be
 * asked for JSON against a schema, validated, and retried on an invalid reply; a failing step
 * fails the pipeline with the step id unless it says `continueOnError`; abort stops every step.
 */
import type { AgentEvent } from '@troupe/core';
import { SimulatedClock } from '@troupe/core/testing';
import { describe, expect, it } from 'vitest';
import { createRuntime, type GraphConfig, type PipelineConfig } from '../../src/index.js';
import { testGraph, type TestAgent } from '../../src/testing.js';

function withPipeline(agents: Record<string, TestAgent>, pipeline: Omit<PipelineConfig, 'name'>): GraphConfig {
  const graph = testGraph(agents);
  graph.pipelines = { flow: { name: 'flow', ...pipeline } };
  graph.entry = 'flow';
  return graph;
}

function starts(events: AgentEvent[]): string[] {
  return events.filter((e) => e.type === 'agent_start').map((e) => e.agentPath);
}

describe('pipelines', () => {
  it('run steps in order, passing outputs on through templates', async () => {
    const graph = withPipeline(
      { writer: { script: [{ text: 'draft about cats' }] }, editor: { script: [{ text: 'polished' }] } },
      {
        steps: [
          { kind: 'agent', id: 'draft', agent: 'writer', input: 'Write about {{input}}' },
          { kind: 'agent', id: 'edit', agent: 'editor', input: 'Edit: {{steps.draft.output}}' },
        ],
      },
    );
    const runtime = createRuntime({ graph });
    const run = runtime.run('cats');
    const events: AgentEvent[] = [];
    run.events$.subscribe((e) => events.push(e));
    const result = await run.result;
    expect(result).toMatchObject({
      status: 'done',
      stopReason: 'stop',
      text: 'polished',
      output: 'polished',
      steps: { draft: { output: 'draft about cats' }, edit: { output: 'polished' } },
    });
    expect(starts(events)).toEqual(['flow/draft', 'flow/edit']);
    const editPrompt = events.find((e) => e.type === 'message_end' && e.agentPath === 'flow/edit' && e.role === 'user');
    expect(editPrompt).toMatchObject({ message: { content: 'Edit: draft about cats' } });
  });

  it('validate JSON output against a schema and ask again after an invalid reply', async () => {
    const schema = { type: 'array', items: { type: 'string' }, minItems: 1 };
    const graph = withPipeline(
      { planner: { script: [{ text: 'Sure! Here are sections.' }, { text: '["intro","body"]' }] } },
      { steps: [{ kind: 'agent', id: 'outline', agent: 'planner', input: 'Outline {{input}}', output: { schema } }] },
    );
    const run = createRuntime({ graph }).run('cats');
    const events: AgentEvent[] = [];
    run.events$.subscribe((e) => events.push(e));
    const result = await run.result;
    expect(result).toMatchObject({ status: 'done', output: ['intro', 'body'] });
    // The same actor was asked again, seeing what was wrong with its first reply.
    expect(starts(events)).toEqual(['flow/outline', 'flow/outline']);
    const prompts = events.flatMap((e) => (e.type === 'message_end' && e.role === 'user' && e.message?.role === 'user' ? [String(e.message.content)] : []));
    expect(prompts[0]).toContain('Reply with JSON only');
    expect(prompts[1]).toMatch(/^Your previous reply was not acceptable: it is not valid JSON/);
  });

  it('fail a step whose JSON stays invalid after the retries', async () => {
    const graph = withPipeline(
      { planner: { script: [{ text: 'no' }, { text: '[]' }] } },
      { steps: [{ kind: 'agent', id: 'outline', agent: 'planner', input: 'Outline', output: { schema: { type: 'array', minItems: 1 }, retries: 1 } }] },
    );
    const result = await createRuntime({ graph }).run('cats').result;
    expect(result.status).toBe('failed');
    expect(result.error?.message).toBe(
      'step outline failed: planner gave no acceptable JSON after 2 attempts: it does not match the schema: (root): must NOT have fewer than 1 items',
    );
  });

  it('accept JSON in a code fence and map over it with bounded concurrency', async () => {
    const clock = new SimulatedClock();
    const graph = withPipeline(
      {
        planner: { script: [{ text: '```json\n["a","b","c"]\n```' }] },
        writer: { script: [{ text: 'section done', delayMs: 1000 }] },
      },
      {
        steps: [
          { kind: 'agent', id: 'outline', agent: 'planner', input: 'Outline', output: { schema: { type: 'array', items: { type: 'string' } } } },
          { kind: 'map', id: 'sections', over: '{{steps.outline.output}}', concurrency: 2, agent: 'writer', input: 'Write {{item}} ({{index}})' },
        ],
      },
    );
    const run = createRuntime({ graph, clock }).run('go');
    const events: AgentEvent[] = [];
    run.events$.subscribe((e) => events.push(e));
    while (starts(events).length < 3) await clock.advance(0);
    expect(starts(events)).toEqual(['flow/outline', 'flow/sections/1', 'flow/sections/2']);
    await clock.advance(1000);
    expect(starts(events)).toContain('flow/sections/3');
    await clock.advance(1000);
    const result = await run.result;
    expect(result.output).toEqual(['section done', 'section done', 'section done']);
  });

  it('fan out in parallel and collect every result', async () => {
    const graph = withPipeline(
      { critic: { script: [{ text: 'too long' }] }, checker: { script: [{ text: 'facts ok' }] } },
      {
        steps: [
          {
            kind: 'parallel',
            id: 'review',
            steps: [
              { kind: 'agent', id: 'style', agent: 'critic', input: 'Review {{input}}' },
              { kind: 'agent', id: 'facts', agent: 'checker', input: 'Check {{input}}' },
            ],
          },
        ],
      },
    );
    const result = await createRuntime({ graph }).run('essay').result;
    expect(result.output).toEqual({ style: 'too long', facts: 'facts ok' });
  });

  it('fail with the step id, or go on past a step that says continueOnError', async () => {
    const agents = { broken: { script: [{ error: { kind: 'auth' as const, message: 'no key' } }] }, fine: { script: [{ text: 'fine' }] } };
    const failing = withPipeline(agents, {
      steps: [
        { kind: 'agent', id: 'first', agent: 'broken', input: 'x' },
        { kind: 'agent', id: 'second', agent: 'fine', input: 'y' },
      ],
    });
    const failed = await createRuntime({ graph: failing }).run('go').result;
    expect(failed.status).toBe('failed');
    expect(failed.error).toMatchObject({ code: 'step_failed', message: 'step first failed: broken (flow/first) failed: no key', data: { step: 'first' } });
    expect(failed.steps?.['second']).toBeUndefined();

    const lenient = withPipeline(agents, {
      steps: [
        { kind: 'agent', id: 'first', agent: 'broken', input: 'x', continueOnError: true },
        { kind: 'agent', id: 'second', agent: 'fine', input: 'after {{steps.first.output}}' },
      ],
    });
    const passed = await createRuntime({ graph: lenient }).run('go').result;
    expect(passed.status).toBe('done');
    expect(passed.steps?.['first']).toMatchObject({ output: null, error: { message: 'broken (flow/first) failed: no key' } });
    expect(passed.output).toBe('fine');
  });

  it('abort every running step', async () => {
    const graph = withPipeline(
      { slow: { script: [{ text: 'late', delayMs: 60_000 }] } },
      {
        steps: [
          {
            kind: 'parallel',
            id: 'both',
            steps: [
              { kind: 'agent', id: 'a', agent: 'slow', input: 'x' },
              { kind: 'agent', id: 'b', agent: 'slow', input: 'y' },
            ],
          },
        ],
      },
    );
    const clock = new SimulatedClock();
    const run = createRuntime({ graph, clock }).run('go');
    const events: AgentEvent[] = [];
    run.events$.subscribe((e) => events.push(e));
    while (starts(events).length < 2) await clock.advance(0);
    await run.abort();
    const result = await run.result;
    expect(result.status).toBe('aborted');
    expect(events.filter((e) => e.type === 'agent_end').map((e) => e.type === 'agent_end' && e.result.stopReason)).toEqual(['aborted', 'aborted']);
  });
});
