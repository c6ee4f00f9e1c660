/**
 * Proves `parseModelSpec` splits `provider:model` (keeping later colons in the model name),
 * maps a bare `scripted` to the default scripted model, and rejects empty parts and unknown
 * providers with typed errors whose messages say which providers exist.
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

  it('rejects an unknown provider, listing the available ones', () => {
    const error = errorOf('openai:gpt-4.1-mini');
    expect(error).toBeInstanceOf(TroupeError);
    expect(error.code).toBe(ProviderErrorCode.UnknownProvider);
    expect(error.message).toBe('unknown provider "openai": available providers: scripted (vendor providers come in a later release)');
    expect(error.data).toEqual({ provider: 'openai', available: ['scripted'] });
  });

  it('treats a bare name other than scripted as a provider name', () => {
    expect(errorOf('openai').code).toBe(ProviderErrorCode.UnknownProvider);
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
    expect(availableProviders()).toEqual(['scripted']);
  });
});
