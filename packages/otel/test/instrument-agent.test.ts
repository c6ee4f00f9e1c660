/** `instrument` traces an agent used without a runtime: one agent span per run, inside the caller's parent. */
import { Agent } from '@troupe/core';
import { createScriptedProvider } from '@troupe/core/testing';
import { describe, expect, it } from 'vitest';
import { instrument } from '../src/index.js';
import { captureSpans } from './span-capture.js';

describe('instrument', () => {
  it('writes each run of a bare agent as an invoke_agent span with its model calls', async () => {
    const agent = new Agent({ provider: createScriptedProvider([{ text: 'one' }, { text: 'two' }]), model: 'tiny' });
    const capture = captureSpans();
    const parent = { traceparent: '00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01' };
    const traced = instrument(agent, { tracer: capture.tracer, parent });
    await agent.prompt('first');
    await agent.prompt('second');
    traced.stop();
    expect(capture.tree()).toEqual(['invoke_agent agent', '  chat tiny', 'invoke_agent agent', '  chat tiny']);
    for (const span of capture.spans().filter((s) => s.name === 'invoke_agent agent')) {
      expect(span.parentSpanContext?.spanId).toBe('00f067aa0ba902b7');
      expect(span.spanContext().traceId).toBe('4bf92f3577b34da6a3ce929d0e0e4736');
      expect(span.attributes).toMatchObject({ 'gen_ai.agent.name': 'agent', 'gen_ai.request.model': 'tiny', 'troupe.stop_reason': 'stop' });
    }
  });
});
