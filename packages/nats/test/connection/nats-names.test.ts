/**
 * keyToken / kvKey: a token of letters, digits, `_` and `-` is the string itself; any other
 * character is escaped reversibly; a key joins its parts' tokens with dots.
 */
import { describe, expect, it } from 'vitest';
import { fromKeyToken, keyToken, kvKey } from '../../src/index.js';

describe('keyToken', () => {
  it('leaves a safe string as it is', () => {
    for (const value of ['run_1a2b', 'lead', 'A-z_09']) expect(keyToken(value)).toBe(value);
  });

  it('escapes every other character reversibly', () => {
    expect(keyToken('lead/researcher#2')).toBe('lead=2Fresearcher=232');
    expect(keyToken('')).toBe('=');
    for (const value of ['', 'a.b', 'lead/critic#10', 'é', '日本', 'x=y', '*>']) {
      expect(keyToken(value)).toMatch(/^[A-Za-z0-9_=-]+$/);
      expect(fromKeyToken(keyToken(value))).toBe(value);
    }
  });
});

describe('kvKey', () => {
  it('joins the tokens of its parts with dots', () => {
    expect(kvKey('run_1', 'lead/helper#1')).toBe('run_1.lead=2Fhelper=231');
    expect(kvKey('run_1')).toBe('run_1');
    expect(kvKey('run_1', '', 'x')).toBe('run_1.=.x');
    expect(kvKey()).toBe('');
  });
});
