/**
 * Proves tool settings are checked against a factory's declared spec: every kind accepts what it
 * should and names what it refuses (including regular expressions that do not compile), unknown
 * keys are listed with the known ones, and valid settings come back unchanged.
 */
import { describe, expect, it } from 'vitest';
import { InvalidToolSettingsError, parseToolSettings, settingProblem } from '../src/tool-settings.js';

const SPEC = {
  path: { kind: 'path', description: 'p' },
  mode: { kind: 'string', values: ['a', 'b'], description: 'm' },
  on: { kind: 'boolean', description: 'o' },
  count: { kind: 'positiveInteger', description: 'c' },
  names: { kind: 'stringList', description: 'n' },
  deny: { kind: 'regexList', description: 'd' },
} as const;

describe('settingProblem', () => {
  it('accepts each kind and refuses the wrong types', () => {
    expect(settingProblem(SPEC.path, 'x')).toBeUndefined();
    expect(settingProblem(SPEC.path, 1)).toBe('must be a string');
    expect(settingProblem(SPEC.mode, 'c')).toBe('must be one of a, b');
    expect(settingProblem(SPEC.on, 'yes')).toBe('must be true or false');
    expect(settingProblem(SPEC.count, 0)).toBe('must be a positive integer');
    expect(settingProblem(SPEC.count, 2.5)).toBe('must be a positive integer');
    expect(settingProblem(SPEC.names, ['a', 1])).toBe('must be a list of strings');
    expect(settingProblem(SPEC.deny, ['ok', '(unclosed'])).toMatch(/^invalid regular expression "\(unclosed": /);
  });
});

describe('parseToolSettings', () => {
  it('returns valid settings as given', () => {
    expect(parseToolSettings('t', SPEC, { path: '/w', mode: 'a', on: false, count: 3, names: [], deny: ['rm'] })).toEqual({
      path: '/w',
      mode: 'a',
      on: false,
      count: 3,
      names: [],
      deny: ['rm'],
    });
    expect(parseToolSettings('t', SPEC, undefined)).toEqual({});
  });

  it('lists every problem in one typed error', () => {
    let caught: unknown;
    try {
      parseToolSettings('t', SPEC, { count: -1, colour: 'red' });
    } catch (error) {
      caught = error;
    }
    expect(caught).toBeInstanceOf(InvalidToolSettingsError);
    expect((caught as InvalidToolSettingsError).problems).toEqual([
      'count must be a positive integer',
      'unknown setting "colour" (known: path, mode, on, count, names, deny)',
    ]);
    expect((caught as InvalidToolSettingsError).code).toBe('invalid_tool_settings');
  });
});
