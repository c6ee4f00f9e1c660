/**
 * Proves `createProvider` builds a working scripted provider from a parsed spec and a script
 * (one fresh instance per call), and fails with typed errors for a scripted model without a
 * script and for providers this build does not have.
 */
import type { ProviderEvent, ProviderRequest } from '@troupe/core';
import { describe, expect, it } from 'vitest';
import { createProvider } from '../src/create-provider.js';
import { ProviderConfigError, ProviderErrorCode } from '../src/provider-error.js';

const request: ProviderRequest = { model: 'demo', messages: [], tools: [] };

async function collect(events: AsyncIterable<ProviderEvent>): Promise<ProviderEvent[]> {
  const out: ProviderEvent[] = [];
  for await (const event of events) out.push(event);
  return out;
}

describe('createProvider', () => {
  it('creates a scripted provider that replays the script', async () => {
    const provider = createProvider({ provider: 'scripted', model: 'demo' }, { script: [{ text: 'hi' }] });
    expect(provider.name).toBe('scripted');
    const events = await collect(provider.stream(request, { signal: new AbortController().signal }));
    const done = events.at(-1);
    expect(done?.type).toBe('done');
    expect(done?.type === 'done' && done.message.content).toEqual([{ type: 'text', text: 'hi' }]);
  });

  it('creates independent instances', async () => {
    const spec = { provider: 'scripted', model: 'demo' };
    const script = [{ text: 'first' }];
    const a = createProvider(spec, { script });
    await collect(a.stream(request, { signal: new AbortController().signal }));
    const b = createProvider(spec, { script });
    const events = await collect(b.stream(request, { signal: new AbortController().signal }));
    expect(events.at(-1)?.type).toBe('done');
  });

  it('requires a script for the scripted provider', () => {
    expect(() => createProvider({ provider: 'scripted', model: 'demo' })).toThrow(
      expect.objectContaining({ code: ProviderErrorCode.InvalidProviderOptions, message: 'the scripted model "demo" needs a script' }),
    );
  });

  it('rejects providers this build does not have', () => {
    expect(() => createProvider({ provider: 'anthropic', model: 'claude-sonnet-4-5' })).toThrow(ProviderConfigError);
  });
});
