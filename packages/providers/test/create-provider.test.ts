/**
 * Proves `createProvider` builds a working scripted provider from a parsed spec and a script
 * (one fresh instance per call) and the vendor providers from options or the environment, and
 * fails with typed errors for a scripted model without a script, a provider this build does not
 * have, a vendor without its API key (naming the variable) and an OpenAI-compatible server
 * without a base URL; the key never shows in the provider object.
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
    expect(() => createProvider({ provider: 'acme', model: 'rocket-1' })).toThrow(ProviderConfigError);
  });

  it.each([
    ['openai', 'OPENAI_API_KEY'],
    ['openai-chat', 'OPENAI_API_KEY'],
    ['anthropic', 'ANTHROPIC_API_KEY'],
    ['google', 'GEMINI_API_KEY or GOOGLE_API_KEY'],
    ['openrouter', 'OPENROUTER_API_KEY'],
  ])('fails clearly when %s has no key, naming %s', (provider, names) => {
    const error = (() => {
      try {
        createProvider({ provider, model: 'm' }, { env: {} });
      } catch (thrown) {
        return thrown;
      }
      throw new Error('no error');
    })();
    expect(error).toBeInstanceOf(ProviderConfigError);
    expect(error).toMatchObject({ code: ProviderErrorCode.MissingApiKey });
    expect((error as Error).message).toContain(`set ${names}`);
  });

  it('reads the key from the environment (GOOGLE_API_KEY as well as GEMINI_API_KEY)', () => {
    expect(createProvider({ provider: 'openai', model: 'm' }, { env: { OPENAI_API_KEY: 'sk-x' } }).name).toBe('openai');
    expect(createProvider({ provider: 'google', model: 'm' }, { env: { GOOGLE_API_KEY: 'AIza-x' } }).name).toBe('google');
    expect(createProvider({ provider: 'anthropic', model: 'm' }, { apiKey: 'sk-ant-x', env: {} }).name).toBe('anthropic');
  });

  it('needs no key for local servers, and a base URL for openai-compatible', () => {
    expect(createProvider({ provider: 'ollama', model: 'qwen3' }, { env: {} }).name).toBe('ollama');
    expect(() => createProvider({ provider: 'openai-compatible', model: 'm' }, { env: {} })).toThrow(
      expect.objectContaining({ code: ProviderErrorCode.InvalidProviderOptions, message: expect.stringContaining('needs a base URL') }),
    );
    expect(createProvider({ provider: 'openai-compatible', model: 'm' }, { env: {}, baseUrl: 'http://127.0.0.1:9/v1' }).name).toBe('openai-compatible');
  });

  it('keeps the key out of the provider object', () => {
    const provider = createProvider({ provider: 'anthropic', model: 'm' }, { apiKey: 'sk-ant-secret-value-123', env: {} });
    expect(JSON.stringify(provider)).not.toContain('secret-value');
  });
});
