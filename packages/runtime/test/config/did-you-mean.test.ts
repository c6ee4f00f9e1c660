/**
 * Proves the "did you mean" helper suggests the closest name for typical typos (a missing,
 * extra, swapped or wrong letter, a case difference) and stays quiet when nothing is close or
 * the name is too short for a guess to mean anything.
 */
import { describe, expect, it } from 'vitest';
import { closestMatch, didYouMean, editDistance } from '../../src/config/did-you-mean.js';

const keys = ['model', 'system', 'tools', 'limits', 'permissions'];

describe('closestMatch', () => {
  it.each([
    ['sytem', 'system'],
    ['systme', 'system'],
    ['tool', 'tools'],
    ['limitz', 'limits'],
    ['Model', 'model'],
    ['permisions', 'permissions'],
  ])('suggests %s → %s', (input, expected) => {
    expect(closestMatch(input, keys)).toBe(expected);
  });

  it.each(['colour', 'xyz', 'a', 'mo'])('suggests nothing for %s', (input) => {
    expect(closestMatch(input, keys)).toBeUndefined();
  });

  it('formats the hint', () => {
    expect(didYouMean('sytem', keys)).toBe('did you mean "system"?');
    expect(didYouMean('colour', keys)).toBeUndefined();
  });

  it('counts a transposition as one edit', () => {
    expect(editDistance('ab', 'ba')).toBe(1);
    expect(editDistance('kitten', 'sitting')).toBe(3);
    expect(editDistance('', 'abc')).toBe(3);
  });
});
