/**
 * A run that waits for a person across processes: when its process closes, the run's span ends
 * as waiting and the asking actor's spans end set aside; answered after a resume in another
 * runtime, the run goes on in the same trace — the resumed run's span below (and linked to) the
 * first one, the restored actor's span marked restored.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createFileRunStore, createRuntime } from '@troupe/runtime';
import { askTool, finished, testGraph, untilWaiting } from '@troupe/runtime/testing';
import { createToolRegistry } from '@troupe/tools';
import { afterEach, describe, expect, it } from 'vitest';
import { createOtelInstrumentation } from '../src/index.js';
import { captureSpans } from './span-capture.js';

const graph = testGraph({
  lead: { tools: ['ask'], script: [{ toolCalls: [{ name: 'ask', arguments: { question: 'Where to?' } }] }, { text: 'going to {{lastToolResult}}' }] },
});
const tools = createToolRegistry({ factories: [askTool] });
const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

describe('a run answered later', () => {
  it('goes on in the same trace after a resume elsewhere', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'troupe-otel-'));
    dirs.push(dir);
    const first = captureSpans();
    const before = createRuntime({ graph, tools, store: createFileRunStore(dir), instrumentation: createOtelInstrumentation({ tracer: first.tracer }) });
    const run = before.run('plan');
    await untilWaiting(run);
    await before.close();
    // The process goes: what it had open ends, set aside (the run itself has not ended).
    expect(first.tree()).toEqual(['invoke_workflow lead', '  invoke_agent lead', '    chat lead', '    execute_tool ask']);
    expect(first.one('invoke_workflow lead').attributes['troupe.run.status']).toBe('waiting');
    expect(first.one('invoke_agent lead').attributes['troupe.agent.set_aside']).toBe(true);
    const asked = first.one('execute_tool ask');
    expect(asked.attributes['troupe.agent.set_aside']).toBe(true);
    expect(asked.events.map((event) => event.name)).toEqual(['troupe.question']);
    const firstRun = first.one('invoke_workflow lead');

    const later = captureSpans();
    const after = createRuntime({ graph, tools, store: createFileRunStore(dir), instrumentation: createOtelInstrumentation({ tracer: later.tracer }) });
    const resumed = await after.resume(run.id);
    await resumed.reply('Lisbon');
    const { result } = await finished(resumed);
    await after.close();
    expect(result.text).toBe('going to Lisbon');

    expect(later.tree()).toEqual(['invoke_workflow lead', '  invoke_agent lead', '    execute_tool ask', '    chat lead']);
    const workflow = later.one('invoke_workflow lead');
    // Its parent is the first run span, ended with its process: the same trace, and a link to it.
    expect(workflow.spanContext().traceId).toBe(firstRun.spanContext().traceId);
    expect(workflow.parentSpanContext?.spanId).toBe(firstRun.spanContext().spanId);
    expect(workflow.links.map((link) => [link.context.spanId, link.attributes])).toEqual([
      [firstRun.spanContext().spanId, { 'troupe.link.kind': 'resumed_from' }],
    ]);
    expect(workflow.attributes).toMatchObject({ 'troupe.run.resumed': true, 'troupe.run.status': 'done' });
    expect(later.one('invoke_agent lead').attributes).toMatchObject({ 'troupe.agent.restored': true, 'troupe.stop_reason': 'stop' });
  });
});
