/**
 * Proves the scrubber removes a provider's API key from error text, whole or in the masked forms
 * vendors echo (`sk-proj-****abcd`), and anything shaped like an OpenAI, Anthropic or Google key,
 * while leaving ordinary text alone.
 */
import { describe, expect, it } from 'vitest';
import { createScrubber } from '../../src/shared/secret-scrubber.js';

describe('createScrubber', () => {
  const scrub = createScrubber(['my-custom-secret-value', undefined]);

  it('removes the exact keys it was given', () => {
    expect(scrub('bad key my-custom-secret-value here')).toBe('bad key [redacted] here');
  });

  it('removes key-shaped strings, including masked ones', () => {
    expect(scrub('Incorrect API key provided: sk-proj-********************abcd.')).toBe('Incorrect API key provided: [redacted]');
    expect(scrub('key sk-ant-api03-AbCdEfGhIjKlMnOp rejected')).toBe('key [redacted] rejected');
    expect(scrub('key AIzaSyA1234567890abcdefghijklmnop bad')).toBe('key [redacted] bad');
  });

  it('leaves other text alone', () => {
    expect(scrub('prompt is too long: 212345 tokens > 200000 maximum')).toBe('prompt is too long: 212345 tokens > 200000 maximum');
  });
});
