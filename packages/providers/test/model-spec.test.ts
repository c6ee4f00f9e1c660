/**
 * Proves `parseModelSpec` splits `provider:model` for the scripted and vendor providers (keeping
 * later colons in the model name, as in `ollama:qwen3:8b`), maps a bare `scripted` to the default
 * scripted model, and rejects empty parts and unknown providers with typed errors whose messages
 * say which providers exist.
 */
import { TroupeError } from '@troupe/core';
import { describe, expect, it } from 'vitest';
import { availableProviders, formatModelSpec, parseModelSpec } from '../src/model-spec.js';
import { ProviderConfigError, ProviderErrorCode } from '../src/provider-error.js';

function errorOf(spec: string): ProviderConfigError {
  try {
    parseModelSpec(spec);
  } catch (error) {
    if (error instanceof ProviderConfigError) return error;
    throw error;
  }
  throw new Error(`parseModelSpec(${JSON.stringify(spec)}) did not throw`);
}

describe('parseModelSpec', () => {
  it.each([
    ['scripted', { provider: 'scripted', model: 'default' }],
    ['scripted:demo', { provider: 'scripted', model: 'demo' }],
    ['scripted:a:b', { provider: 'scripted', model: 'a:b' }],
    ['  scripted:demo  ', { provider: 'scripted', model: 'demo' }],
  ])('parses %j', (spec, expected) => {
    expect(parseModelSpec(spec)).toEqual(expected);
  });

  it.each([
    ['openai:gpt-4.1-mini', { provider: 'openai', model: 'gpt-4.1-mini' }],
    ['anthropic:claude-sonnet-4-5', { provider: 'anthropic', model: 'claude-sonnet-4-5' }],
    ['google:gemini-2.5-flash', { provider: 'google', model: 'gemini-2.5-flash' }],
    ['ollama:qwen3:8b', { provider: 'ollama', model: 'qwen3:8b' }],
    ['openai-compatible:my-model', { provider: 'openai-compatible', model: 'my-model' }],
  ])('parses the vendor spec %j', (spec, expected) => {
    expect(parseModelSpec(spec)).toEqual(expected);
  });

  it('rejects an unknown provider, listing the available ones', () => {
    const error = errorOf('acme:rocket-1');
    expect(error).toBeInstanceOf(TroupeError);
    expect(error.code).toBe(ProviderErrorCode.UnknownProvider);
    expect(error.message).toBe(`unknown provider "acme": available providers: ${availableProviders().join(', ')}`);
    expect(error.data).toEqual({ provider: 'acme', available: availableProviders() });
  });

  it('treats a bare name other than scripted as a provider name', () => {
    expect(errorOf('acme').code).toBe(ProviderErrorCode.UnknownProvider);
    expect(errorOf('openai').code).toBe(ProviderErrorCode.InvalidModelSpec);
  });

  it.each([
    ['', 'invalid model "": expected provider:model, for example openai:gpt-4.1-mini'],
    [':gpt', 'invalid model ":gpt": expected provider:model, for example openai:gpt-4.1-mini'],
    ['scripted:', 'invalid model "scripted:": the model name after "scripted:" is missing'],
  ])('rejects the malformed spec %j', (spec, message) => {
    const error = errorOf(spec);
    expect(error.code).toBe(ProviderErrorCode.InvalidModelSpec);
    expect(error.message).toBe(message);
  });

  it('formats a spec back', () => {
    expect(formatModelSpec(parseModelSpec('scripted:x'))).toBe('scripted:x');
  });

  it('returns a fresh list of providers', () => {
    const list = availableProviders();
    list.push('mutated');
    expect(availableProviders()).not.toContain('mutated');
    expect(availableProviders()).toEqual(expect.arrayContaining(['scripted', 'openai', 'openai-chat', 'anthropic', 'google', 'openai-compatible', 'ollama']));
  });
});
