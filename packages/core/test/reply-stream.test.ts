/**
 * The model effect reads a provider's stream as `for await` would: the stream is closed (its
 * `finally` runs) once the reply is done or the call stops reading it early, a stream that ends
 * without a result fails the call (retryable), and a stream that throws fails it with
 * "model call failed: …".
 */
import { describe, expect, it } from 'vitest';
import { Agent, emptyUsage, type AssistantMessage, type Provider, type ProviderEvent } from '../src/index.js';
import { latch } from './support.js';

const reply = (text: string): AssistantMessage => ({
  role: 'assistant',
  content: [{ type: 'text', text }],
  stopReason: 'stop',
  usage: emptyUsage(),
  model: 'm',
  timestamp: 0,
});

describe('reading a reply', () => {
  it('closes the stream once the reply is done', async () => {
    const closed = latch();
    const provider: Provider = {
      name: 'closing',
      async *stream(): AsyncGenerator<ProviderEvent> {
        try {
          yield { type: 'start' };
          yield { type: 'text_start', index: 0 };
          yield { type: 'text_delta', index: 0, delta: 'hi' };
          yield { type: 'done', message: reply('hi') };
          yield { type: 'text_delta', index: 0, delta: 'never read' };
        } finally {
          closed.resolve();
        }
      },
    };
    const agent = new Agent({ provider, model: 'm' });
    const result = await agent.prompt('hello');
    await closed.promise;
    expect(result.stopReason).toBe('stop');
    expect(result.text).toBe('hi');
  });

  it('closes the stream when the call is aborted while it streams', async () => {
    const closed = latch();
    const streaming = latch();
    const provider: Provider = {
      name: 'endless',
      async *stream(): AsyncGenerator<ProviderEvent> {
        try {
          yield { type: 'start' };
          yield { type: 'text_start', index: 0 };
          for (let i = 0; ; i++) {
            if (i === 1) streaming.resolve();
            yield { type: 'text_delta', index: 0, delta: 'x' };
            await new Promise<void>((resolve) => setImmediate(resolve));
          }
        } finally {
          closed.resolve();
        }
      },
    };
    const agent = new Agent({ provider, model: 'm' });
    const result = agent.prompt('hello');
    await streaming.promise;
    agent.abort();
    expect((await result).stopReason).toBe('aborted');
    await closed.promise;
  });

  it('fails the call when the stream ends without a result', async () => {
    const provider: Provider = {
      name: 'short',
      async *stream(): AsyncGenerator<ProviderEvent> {
        yield { type: 'start' };
      },
    };
    const agent = new Agent({ provider, model: 'm', retry: { delayFor: () => undefined } });
    const result = await agent.prompt('hello');
    expect(result.stopReason).toBe('error');
    expect(result.error?.message).toContain('the provider stream ended without a result');
  });

  it('fails the call with the error a stream throws', async () => {
    const provider: Provider = {
      name: 'throwing',
      async *stream(): AsyncGenerator<ProviderEvent> {
        yield { type: 'start' };
        throw new Error('socket closed');
      },
    };
    const agent = new Agent({ provider, model: 'm', retry: { delayFor: () => undefined } });
    const result = await agent.prompt('hello');
    expect(result.stopReason).toBe('error');
    expect(result.error?.message).toContain('model call failed: socket closed');
  });
});
