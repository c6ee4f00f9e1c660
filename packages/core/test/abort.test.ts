/**
 * Abort (behaviour 6): `abort()` from any state leads to `aborted`. The provider's AbortSignal
 * fires, every running tool sees its signal aborted, calls not finished get the result
 * "[Request interrupted by user for tool use]" with the flow spec's explanation and isError; an
 * abort with no call pending is recorded as the user message "[Request interrupted by user]"; a
 * reply cut off while streaming is closed as failed with "Stream aborted by user". The result's
 * stopReason is `aborted`, agent_end is emitted exactly once, and the history stays valid for
 * `continue()`.
 */
import { describe, expect, it } from 'vitest';
import { INTERRUPTED_TOOL_RESULT, textOf, type Provider, type ProviderEvent, type ToolResultMessage } from '../src/index.js';
import { createScriptedProvider, SimulatedClock } from '../src/testing.js';
import { blockingTool, echoTool, latch, nextEvent, record, scriptedAgent } from './support.js';
import { Agent } from '../src/index.js';

function countEnds(events: { type: string }[]): number {
  return events.filter((e) => e.type === 'agent_end').length;
}

describe('abort', () => {
  it('aborts the model request through its signal', async () => {
    const seen = latch<AbortSignal>();
    const provider: Provider = {
      name: 'hanging',
      async *stream(_request, { signal }): AsyncGenerator<ProviderEvent> {
        seen.resolve(signal);
        yield { type: 'start' };
        yield { type: 'text_start', index: 0 };
        yield { type: 'text_delta', index: 0, delta: 'partial' };
        await new Promise<void>((resolve) => signal.addEventListener('abort', () => resolve()));
        yield { type: 'error', error: { kind: 'aborted', message: 'aborted', retryable: false } };
      },
    };
    const agent = new Agent({ provider, model: 'm' });
    const events = record(agent);
    const streamed = nextEvent(agent, 'message_update');
    const result = agent.prompt('hi');
    const signal = await seen.promise;
    await streamed;
    agent.abort();
    const outcome = await result;
    expect(signal.aborted).toBe(true);
    expect(outcome.stopReason).toBe('aborted');
    expect(agent.state).toBe('aborted');
    expect(countEnds(events)).toBe(1);
    // The partial reply is closed as failed; the history records the interrupt as a user message.
    expect(events.find((e) => e.type === 'message_end' && e.role === 'assistant')).toMatchObject({
      failed: { code: 'aborted', message: 'Stream aborted by user' },
    });
    expect(agent.messages.map((m) => [m.role, textOf(m)])).toEqual([
      ['user', 'hi'],
      ['user', '[Request interrupted by user]'],
    ]);
    expect(outcome.messages.at(-1)).toMatchObject({ role: 'user', content: '[Request interrupted by user]' });
    expect(events.filter((e) => e.type === 'message_end' && e.role === 'user').at(-1)).toMatchObject({ message: { content: '[Request interrupted by user]' } });
    expect(outcome.error).toEqual({ code: 'aborted', message: '[Request interrupted by user]' });
  });

  it('aborts running tools and interrupts every unfinished call', async () => {
    const block = blockingTool();
    const agent = scriptedAgent([{ toolCalls: [{ name: 'echo', arguments: { text: 'quick' } }, { name: 'block' }, { name: 'block' }] }, { text: 'never' }], {
      tools: [block.tool, echoTool()],
    });
    const events = record(agent);
    const result = agent.prompt('go');
    await block.firstStarted;
    while (block.started.length < 2) await new Promise<void>((resolve) => setImmediate(resolve));
    agent.abort();
    const outcome = await result;
    expect(outcome.stopReason).toBe('aborted');
    expect(block.started.every((ctx) => ctx.signal.aborted)).toBe(true);
    const results = outcome.messages.filter((m): m is ToolResultMessage => m.role === 'toolResult');
    expect(results.map((r) => [r.toolCallId, r.isError, r.content])).toEqual([
      ['call_1_1', false, [{ type: 'text', text: 'quick' }]],
      ['call_1_2', true, [{ type: 'text', text: INTERRUPTED_TOOL_RESULT }]],
      ['call_1_3', true, [{ type: 'text', text: INTERRUPTED_TOOL_RESULT }]],
    ]);
    expect(events.filter((e) => e.type === 'tool_end').length).toBe(3);
    expect(countEnds(events)).toBe(1);
  });

  it('gives each parallel call its own signal, so many listeners on them stay within limits', async () => {
    const block = blockingTool();
    const calls = 12;
    const agent = scriptedAgent([{ toolCalls: Array.from({ length: calls }, () => ({ name: 'block' })) }, { text: 'never' }], { tools: [block.tool] });
    const result = agent.prompt('go');
    while (block.started.length < calls) await new Promise<void>((resolve) => setImmediate(resolve));
    const signals = new Set(block.started.map((ctx) => ctx.signal));
    // Node warns past ten abort listeners on one signal; a tool that hands its signal on (fetch, a child process) adds one.
    expect(signals.size).toBe(calls);
    agent.abort();
    expect((await result).stopReason).toBe('aborted');
    expect([...signals].every((signal) => signal.aborted)).toBe(true);
  });

  it('aborts from idle, from a retry back-off, and while waiting for the user', async () => {
    const idle = scriptedAgent([]);
    idle.abort();
    expect(idle.state).toBe('aborted');

    const clock = new SimulatedClock();
    const provider = createScriptedProvider([{ error: { kind: 'rate_limited', retryAfterMs: 10_000 } }, { text: 'late' }]);
    const retrying = new Agent({ provider, model: 'm', clock });
    const events = record(retrying);
    const result = retrying.prompt('hi');
    await clock.advance(0);
    expect(retrying.stateValue).toEqual({ thinking: 'retrying' });
    retrying.abort();
    expect((await result).stopReason).toBe('aborted');
    await clock.advance(20_000);
    expect(provider.requests).toHaveLength(1);
    expect(countEnds(events)).toBe(1);

    const asking = scriptedAgent([{ toolCalls: [{ name: 'echo', arguments: { text: 'x' } }] }], {
      tools: [echoTool({ readOnly: false })],
      permissions: { mode: 'ask' },
    });
    const waiting = asking.prompt('go');
    await new Promise<void>((resolve) => asking.events$.subscribe((e) => e.type === 'permission_request' && resolve()));
    asking.abort();
    const aborted = await waiting;
    expect(aborted.stopReason).toBe('aborted');
    expect(aborted.messages.at(-1)).toMatchObject({ role: 'toolResult', isError: true, content: [{ type: 'text', text: INTERRUPTED_TOOL_RESULT }] });
    expect(INTERRUPTED_TOOL_RESULT.startsWith("[Request interrupted by user for tool use]\n\nThe user doesn't want to proceed with this tool use.")).toBe(true);
  });

  it('leaves a history that continue() can go on from', async () => {
    const block = blockingTool();
    const agent = scriptedAgent([{ toolCalls: [{ name: 'block' }] }, { text: 'resumed' }], { tools: [block.tool] });
    const first = agent.prompt('go');
    await block.firstStarted;
    agent.abort();
    await first;
    const second = await agent.continue();
    expect(second.stopReason).toBe('stop');
    expect(second.text).toBe('resumed');
  });

  it('keeps waiting for nothing when a tool ignores its signal', async () => {
    const stubborn = blockingTool('stubborn', { ignoreAbort: true });
    const agent = scriptedAgent([{ toolCalls: [{ name: 'stubborn' }] }, { text: 'next' }], { tools: [stubborn.tool] });
    const events = record(agent);
    const result = agent.prompt('go');
    await stubborn.firstStarted;
    agent.abort();
    expect((await result).stopReason).toBe('aborted');
    // The late result of the ignored abort is discarded, not appended.
    stubborn.release(stubborn.started[0]!.toolCallId, 'too late');
    await new Promise<void>((resolve) => setImmediate(resolve));
    expect(agent.messages.filter((m) => m.role === 'toolResult')).toHaveLength(1);
    expect(events.filter((e) => e.type === 'tool_end')).toHaveLength(1);
  });
});
