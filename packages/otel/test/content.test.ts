/** With `captureContent`, spans carry the conversation in the conventions' attributes; the provider's settings never reach a span. */
import { createRuntime } from '@troupe/runtime';
import { testGraph } from '@troupe/runtime/testing';
import { describe, expect, it } from 'vitest';
import { createOtelInstrumentation } from '../src/index.js';
import { captureSpans } from './span-capture.js';

describe('captured content', () => {
  it('records the reply, the tool arguments and result, and the agent output', async () => {
    const graph = testGraph({ lead: { tools: ['echo'], script: [{ toolCalls: [{ name: 'echo', arguments: { text: 'ping' } }] }, { text: 'pong' }] } });
    const models = graph.models['lead'];
    if (models !== undefined) models.spec = { ...models.spec, apiKey: 'sk-secret-value-1234' } as typeof models.spec;
    const capture = captureSpans();
    const runtime = createRuntime({ graph, instrumentation: createOtelInstrumentation({ tracer: capture.tracer, captureContent: true }) });
    expect((await runtime.run('say ping').result).status).toBe('done');
    await runtime.close();
    const tool = capture.one('execute_tool echo');
    expect(JSON.parse(String(tool.attributes['gen_ai.tool.call.arguments']))).toEqual({ text: 'ping' });
    expect(tool.attributes['gen_ai.tool.call.result']).toContain('ping');
    const chats = capture.spans().filter((span) => span.name === 'chat lead');
    expect(JSON.parse(String(chats[0]?.attributes['gen_ai.output.messages']))).toEqual([
      { role: 'assistant', parts: [{ type: 'tool_call', id: expect.any(String), name: 'echo', arguments: { text: 'ping' } }], finish_reason: 'tool_call' },
    ]);
    const agent = capture.one('invoke_agent lead');
    expect(JSON.parse(String(agent.attributes['gen_ai.output.messages']))).toEqual([{ role: 'assistant', parts: [{ type: 'text', content: 'pong' }] }]);
    expect(agent.events.find((event) => event.name === 'gen_ai.user.message')?.attributes).toEqual({ content: '"say ping"' });
    expect(JSON.stringify(capture.spans().map((span) => [span.attributes, span.events]))).not.toContain('sk-secret');
  });
});
