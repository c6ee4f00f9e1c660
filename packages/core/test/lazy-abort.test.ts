/**
 * A model call's lazily made abort signal (`LazyAbort`): no signal is made until something reads
 * it, an abort before the read still gives an aborted signal, an abort after it fires the signal
 * once, and `callAborted` reads the state of either kind of call options without making a signal.
 * Through an agent: a provider that never reads the signal still sees the abort through
 * `callAborted`, and one that reads it mid-stream gets a live signal that the abort fires.
 * `onAbort` hears the abort without making a signal: once, at once when already aborted, not
 * after its removal; and a tool's `ctx.onAbort` hears its call aborted with the run.
 */
import { describe, expect, it } from 'vitest';
import { Agent, type Provider, type ProviderEvent, type Tool, type ToolResult } from '../src/index.js';
import { createScriptedProvider } from '../src/testing.js';
import { callAborted, LazyAbort } from '../src/lazy-abort.js';
import { latch } from './support.js';

describe('LazyAbort', () => {
  it('remembers an abort that came before the signal was read', () => {
    const call = new LazyAbort();
    expect(callAborted(call)).toBe(false);
    call.abort();
    expect(callAborted(call)).toBe(true);
    expect(call.signal.aborted).toBe(true);
  });

  it('fires a signal that was read before the abort, once', () => {
    const call = new LazyAbort();
    const signal = call.signal;
    expect(call.signal).toBe(signal);
    let fired = 0;
    signal.addEventListener('abort', () => fired++);
    call.abort();
    call.abort();
    expect(signal.aborted).toBe(true);
    expect(fired).toBe(1);
  });

  it('reads plain call options through their signal', () => {
    const controller = new AbortController();
    const options = { signal: controller.signal };
    expect(callAborted(options)).toBe(false);
    controller.abort();
    expect(callAborted(options)).toBe(true);
  });

  it('gives a provider that reads the signal mid-stream a live one that the abort fires', async () => {
    const streaming = latch<void>();
    const aborted = latch<boolean>();
    const provider: Provider = {
      name: 'late-reader',
      async *stream(_request, call): AsyncGenerator<ProviderEvent> {
        yield { type: 'start' };
        streaming.resolve();
        const signal = call.signal;
        await new Promise<void>((resolve) => signal.addEventListener('abort', () => resolve(), { once: true }));
        aborted.resolve(signal.aborted && callAborted(call));
        yield { type: 'error', error: { kind: 'aborted', message: 'aborted', retryable: false } };
      },
    };
    const agent = new Agent({ provider, model: 'm' });
    const result = agent.prompt('go');
    await streaming.promise;
    agent.abort();
    expect(await aborted.promise).toBe(true);
    expect((await result).stopReason).toBe('aborted');
    agent.dispose();
  });

  it('lets a provider that never read the signal see the abort through callAborted', async () => {
    const streaming = latch<void>();
    const proceed = latch<void>();
    const seen = latch<boolean>();
    const provider: Provider = {
      name: 'checker',
      async *stream(_request, call): AsyncGenerator<ProviderEvent> {
        yield { type: 'start' };
        streaming.resolve();
        await proceed.promise;
        seen.resolve(callAborted(call));
        yield { type: 'error', error: { kind: 'aborted', message: 'aborted', retryable: false } };
      },
    };
    const agent = new Agent({ provider, model: 'm' });
    const result = agent.prompt('go');
    await streaming.promise;
    agent.abort();
    proceed.resolve();
    expect(await seen.promise).toBe(true);
    expect((await result).stopReason).toBe('aborted');
    agent.dispose();
  });

  it('calls onAbort listeners once at the abort, at once when already aborted, and not once removed', () => {
    const call = new LazyAbort();
    const heard: string[] = [];
    call.onAbort(() => heard.push('kept'));
    const remove = call.onAbort(() => heard.push('removed'));
    remove();
    remove();
    call.abort();
    call.abort();
    expect(heard).toEqual(['kept']);
    call.onAbort(() => heard.push('late'));
    expect(heard).toEqual(['kept', 'late']);
    // Listening made no signal; reading it now gives an aborted one.
    expect(call.signal.aborted).toBe(true);
  });

  it("tells a tool's onAbort listener that its call was aborted, with the signal the same abort", async () => {
    const started = latch<void>();
    const heard = latch<boolean>();
    const tool: Tool = {
      name: 'wait',
      description: 'Waits for the abort.',
      parameters: { type: 'object', properties: {} },
      readOnly: true,
      execute: (_args, ctx) =>
        new Promise<ToolResult>((resolve) => {
          ctx.onAbort?.(() => {
            heard.resolve(ctx.signal.aborted);
            resolve({ content: 'aborted', isError: true });
          });
          started.resolve();
        }),
    };
    const provider = createScriptedProvider([{ toolCalls: [{ name: 'wait', arguments: {} }] }, { text: 'never' }]);
    const agent = new Agent({ provider, model: 'm', tools: [tool] });
    const result = agent.prompt('go');
    await started.promise;
    agent.abort();
    expect(await heard.promise).toBe(true);
    expect((await result).stopReason).toBe('aborted');
    agent.dispose();
  });
});
