/**
 * `withFields` means `{ ...base, ...fields }`: a new object with base's own fields, the given
 * fields set over them (new ones added), and base left as it was.
 */
import { describe, expect, it } from 'vitest';
import { withFields } from '../src/with-fields.js';

describe('withFields', () => {
  it('copies base, sets the fields over it and leaves base unchanged', () => {
    const base = { a: 1, b: 'x' };
    const copy = withFields(base, { b: 'y', c: true });
    expect(copy).toEqual({ a: 1, b: 'y', c: true });
    expect(copy).not.toBe(base);
    expect(base).toEqual({ a: 1, b: 'x' });
  });

  it('is an independent copy with no fields', () => {
    const base: Record<string, number> = { a: 1 };
    const copy = withFields(base, {});
    copy['b'] = 2;
    expect(base).toEqual({ a: 1 });
    expect(copy).toEqual({ a: 1, b: 2 });
  });
});
