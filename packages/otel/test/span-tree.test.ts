/**
 * The spans of a run, written to the SDK's in-memory exporter: the tree a delegation, a pipeline
 * with a map, a retried model call, a permission wait and an abort make, with the conventions'
 * names, parents, attributes and statuses.
 */
import { SpanKind, SpanStatusCode } from '@opentelemetry/api';
import { createRuntime, type GraphConfig } from '@troupe/runtime';
import { delegate, finished, testGraph } from '@troupe/runtime/testing';
import { createToolRegistry, type ToolFactory } from '@troupe/tools';
import { describe, expect, it } from 'vitest';
import { createOtelInstrumentation } from '../src/index.js';
import { captureSpans } from './span-capture.js';

/** A tool that writes (so `ask` asks before it runs). */
const writeTool: ToolFactory = {
  name: 'write',
  description: 'Writes.',
  create: () => ({ name: 'write', description: 'Writes a note.', parameters: { type: 'object', properties: {} }, execute: () => ({ content: 'written' }) }),
};

/** A tool that runs until its call is aborted. */
const waitTool: ToolFactory = {
  name: 'wait',
  description: 'Waits.',
  create: () => ({
    name: 'wait',
    description: 'Waits until aborted.',
    readOnly: true,
    parameters: { type: 'object', properties: {} },
    execute: (_args, ctx) => new Promise((resolve) => ctx.signal.addEventListener('abort', () => resolve({ content: 'stopped' }), { once: true })),
  }),
};

function traced(graph: GraphConfig, tools?: ToolFactory[]) {
  const capture = captureSpans();
  const runtime = createRuntime({
    graph,
    instrumentation: createOtelInstrumentation({ tracer: capture.tracer }),
    ...(tools === undefined ? {} : { tools: createToolRegistry({ factories: tools }) }),
  });
  return { capture, runtime };
}

describe('span trees', () => {
  it('nest two children delegated to in parallel inside the tool calls that started them', async () => {
    const graph = testGraph({
      lead: {
        delegates: ['a', 'b'],
        script: [{ toolCalls: [delegate('a', 'first'), delegate('b', 'second')], usage: { input: 10, output: 5 } }, { text: 'both done' }],
      },
      a: { tools: ['echo'], script: [{ toolCalls: [{ name: 'echo', arguments: { text: 'x' } }] }, { text: 'a done' }] },
      b: { tools: ['echo'], script: [{ toolCalls: [{ name: 'echo', arguments: { text: 'y' } }] }, { text: 'b done' }] },
    });
    const { capture, runtime } = traced(graph);
    const run = runtime.run('go');
    const { status, usage } = await finished(run);
    await runtime.close();
    expect(status).toBe('done');
    expect(capture.tree()).toEqual([
      'invoke_workflow lead',
      '  invoke_agent lead',
      '    chat lead',
      '    execute_tool delegate_to_a',
      '      invoke_agent a',
      '        chat a',
      '        execute_tool echo',
      '        chat a',
      '    execute_tool delegate_to_b',
      '      invoke_agent b',
      '        chat b',
      '        execute_tool echo',
      '        chat b',
      '    chat lead',
    ]);
    const ids = new Set(capture.spans().map((span) => span.spanContext().traceId));
    expect(ids.size).toBe(1);

    const workflow = capture.one('invoke_workflow lead');
    expect(workflow.attributes).toMatchObject({
      'gen_ai.operation.name': 'invoke_workflow',
      'gen_ai.workflow.name': 'lead',
      'troupe.run.id': run.id,
      'troupe.run.status': 'done',
      'troupe.stop_reason': 'stop',
      'gen_ai.usage.output_tokens': usage.output,
    });
    const child = capture.one('invoke_agent a');
    expect(child.kind).toBe(SpanKind.INTERNAL);
    expect(child.attributes).toMatchObject({
      'gen_ai.operation.name': 'invoke_agent',
      'gen_ai.agent.name': 'a',
      'gen_ai.agent.id': 'lead/a#1',
      'gen_ai.provider.name': 'scripted',
      'gen_ai.request.model': 'a',
      'troupe.run.id': run.id,
      'troupe.agent.turns': 2,
      'troupe.stop_reason': 'stop',
    });
    expect(typeof child.attributes['gen_ai.conversation.id']).toBe('string');
    const firstChat = capture.spans().find((span) => span.name === 'chat lead');
    expect(firstChat?.kind).toBe(SpanKind.CLIENT);
    expect(firstChat?.attributes).toMatchObject({
      'gen_ai.operation.name': 'chat',
      'gen_ai.provider.name': 'scripted',
      'gen_ai.request.model': 'lead',
      'gen_ai.response.model': 'lead',
      'gen_ai.response.finish_reasons': ['tool_call'],
      'gen_ai.usage.input_tokens': 10,
      'gen_ai.usage.output_tokens': 5,
    });
    const echo = capture.spans().find((span) => span.name === 'execute_tool echo');
    expect(echo?.attributes).toMatchObject({ 'gen_ai.operation.name': 'execute_tool', 'gen_ai.tool.name': 'echo', 'gen_ai.tool.type': 'function' });
    expect(echo?.attributes['gen_ai.tool.call.id']).toEqual(expect.any(String));
    // No content unless asked for.
    expect(
      capture
        .spans()
        .some((span) => Object.keys(span.attributes).some((key) => key.includes('messages') || key.endsWith('.arguments') || key.endsWith('.result'))),
    ).toBe(false);
    expect(capture.spans().every((span) => span.status.code !== SpanStatusCode.ERROR)).toBe(true);
  });

  it('put each step of a pipeline, and each item of its map, in a step span', async () => {
    const graph = testGraph({ lister: { script: [{ text: '["x","y"]' }] }, worker: { script: [{ text: 'one' }, { text: 'two' }] } });
    graph.pipelines = {
      flow: {
        name: 'flow',
        steps: [
          { kind: 'agent', id: 'list', agent: 'lister', input: '{{input}}' },
          { kind: 'map', id: 'each', agent: 'worker', over: '{{steps.list.output}}', input: 'do {{item}}', concurrency: 1 },
        ],
      },
    };
    graph.entry = 'flow';
    const { capture, runtime } = traced(graph);
    expect((await runtime.run('go').result).status).toBe('done');
    await runtime.close();
    expect(capture.tree()).toEqual([
      'invoke_workflow flow',
      '  step list',
      '    invoke_agent lister',
      '      chat lister',
      '  step each',
      '    invoke_agent worker',
      '      chat worker',
      '    invoke_agent worker',
      '      chat worker',
    ]);
    expect(capture.one('step each').attributes).toMatchObject({ 'troupe.step.id': 'each', 'troupe.step.kind': 'map', 'troupe.agent.path': 'flow/each' });
    expect(
      capture
        .spans()
        .filter((span) => span.name === 'invoke_agent worker')
        .map((span) => span.attributes['gen_ai.agent.id']),
    ).toEqual(['flow/each/1', 'flow/each/2']);
    expect(capture.one('invoke_workflow flow').attributes).toMatchObject({ 'troupe.pipeline.name': 'flow', 'troupe.run.status': 'done' });
  });

  it('make a retried model call one chat span with the retry as an event, and a failed one an error', async () => {
    const graph = testGraph({
      lead: { script: [{ error: { kind: 'rate_limited', message: 'slow down', retryAfterMs: 1 } }, { text: 'fine' }] },
      broken: { script: [{ error: { kind: 'auth', message: 'bad key' } }] },
    });
    const { capture, runtime } = traced(graph);
    expect((await runtime.run('go').result).status).toBe('done');
    const chat = capture.one('chat lead');
    expect(chat.status.code).not.toBe(SpanStatusCode.ERROR);
    expect(chat.attributes).toMatchObject({ 'troupe.model.attempts': 2, 'gen_ai.response.finish_reasons': ['stop'] });
    expect(chat.events.map((event) => [event.name, event.attributes])).toEqual([
      [
        'gen_ai.retry',
        { 'troupe.retry.attempt': 1, 'troupe.retry.delay_ms': expect.any(Number), 'error.type': 'rate_limited', 'exception.message': 'slow down' },
      ],
    ]);

    expect((await runtime.run('go', { entry: 'broken' }).result).status).toBe('failed');
    await runtime.close();
    const failed = capture.one('chat broken');
    expect(failed.status).toMatchObject({ code: SpanStatusCode.ERROR, message: 'bad key' });
    expect(failed.attributes['error.type']).toBe('auth');
    expect(capture.one('invoke_agent broken').attributes['error.type']).toBe('provider_error');
    expect(capture.one('invoke_workflow broken')).toMatchObject({
      status: { code: SpanStatusCode.ERROR },
      attributes: expect.objectContaining({ 'troupe.run.status': 'failed' }),
    });
  });

  it('show a permission wait on the tool call, apart from the time the tool ran', async () => {
    const graph = testGraph({ lead: { tools: ['write'], permissions: { mode: 'ask' }, script: [{ toolCalls: [{ name: 'write' }] }, { text: 'ok' }] } });
    const { capture, runtime } = traced(graph, [writeTool]);
    const run = runtime.run('go');
    const asked = await new Promise<string>((resolve) => run.events$.subscribe((e) => e.type === 'permission_request' && resolve(e.toolCallId)));
    // The decision comes later: the wait is what the tool call span shows of it.
    await new Promise((resolve) => setTimeout(resolve, 20));
    await run.approve(asked, 'allow_once');
    expect((await run.result).status).toBe('done');
    await runtime.close();
    const tool = capture.one('execute_tool write');
    expect(tool.events.map((event) => event.name)).toEqual(['troupe.permission.request', 'troupe.wait.end']);
    expect(tool.events[0]?.attributes).toEqual({ 'troupe.wait.kind': 'permission' });
    expect(tool.attributes['troupe.tool.wait_ms']).toEqual(expect.any(Number));
    expect(tool.attributes['troupe.tool.wait_ms']).toBeGreaterThan(0);
    expect(capture.parentOf(tool)?.name).toBe('invoke_agent lead');
  });

  it('end an aborted run and what it was doing as aborted, not failed', async () => {
    const graph = testGraph({ lead: { tools: ['wait'], script: [{ toolCalls: [{ name: 'wait' }] }, { text: 'never' }] } });
    const { capture, runtime } = traced(graph, [waitTool]);
    const run = runtime.run('go');
    await new Promise<void>((resolve) => run.events$.subscribe((e) => e.type === 'tool_start' && resolve()));
    await run.abort();
    expect((await run.result).status).toBe('aborted');
    await runtime.close();
    expect(capture.tree()).toEqual(['invoke_workflow lead', '  invoke_agent lead', '    chat lead', '    execute_tool wait']);
    expect(capture.one('invoke_workflow lead').attributes).toMatchObject({ 'troupe.run.status': 'aborted', 'troupe.aborted': true });
    expect(capture.one('invoke_agent lead').attributes).toMatchObject({ 'troupe.stop_reason': 'aborted', 'troupe.aborted': true });
    expect(
      capture
        .spans()
        .filter((span) => span.status.code === SpanStatusCode.ERROR)
        .map((span) => [span.name, span.status, span.attributes]),
    ).toEqual([]);
  });
});
