/** redactSecrets hides the values of the keys the logs redact, at any depth, and leaves the rest as it was. */
import { describe, expect, it } from 'vitest';
import { REDACTED_KEYS } from '@troupe/runtime';
import { REDACTED, redactSecrets } from '../src/index.js';

describe('redactSecrets', () => {
  it('replaces every key the logs redact, deep in objects and arrays', () => {
    const value = { a: 1, list: [{ apiKey: 'k', keep: 'x' }], deep: { er: { est: { still: { password: 'p', token: 't' } } } } };
    expect(redactSecrets(value)).toEqual({
      a: 1,
      list: [{ apiKey: REDACTED, keep: 'x' }],
      deep: { er: { est: { still: { password: REDACTED, token: REDACTED } } } },
    });
    expect(value.list[0]?.apiKey).toBe('k');
    for (const key of REDACTED_KEYS) expect(redactSecrets({ [key]: 'secret' })).toEqual({ [key]: REDACTED });
  });
});
