/**
 * Proves `${NAME}` interpolation substitutes set variables, applies `${NAME:-fallback}` when a
 * variable is unset or empty, keeps `$${` as a literal `${`, leaves other `$` alone, and reports
 * unset and malformed references with their exact index so the loader can point at them.
 */
import { describe, expect, it } from 'vitest';
import { interpolateEnv } from '../../src/config/env-interpolation.js';

const env = { HOST: 'example.org', EMPTY: '', PORT: '8080' };

describe('interpolateEnv', () => {
  it.each([
    ['no references', 'plain text', 'plain text'],
    ['one variable', 'https://${HOST}/', 'https://example.org/'],
    ['two variables', '${HOST}:${PORT}', 'example.org:8080'],
    ['a fallback for an unset variable', '${MISSING:-local}', 'local'],
    ['a fallback for an empty variable', '${EMPTY:-local}', 'local'],
    ['a fallback that is not needed', '${HOST:-local}', 'example.org'],
    ['an empty fallback', '[${MISSING:-}]', '[]'],
    ['an escaped reference', 'cost $${HOST}', 'cost ${HOST}'],
    ['a dollar without a brace', 'costs $5 or $HOST', 'costs $5 or $HOST'],
    ['an empty value', '[${EMPTY}]', '[]'],
  ])('substitutes %s', (_name, text, expected) => {
    expect(interpolateEnv(text, env)).toEqual({ value: expected, problems: [] });
  });

  it('reports each unset variable with its position and leaves it as written', () => {
    expect(interpolateEnv('a ${X} b ${HOST} c ${X}', env)).toEqual({
      value: 'a ${X} b example.org c ${X}',
      problems: [
        { kind: 'unset', name: 'X', index: 2, length: 4, text: '${X}' },
        { kind: 'unset', name: 'X', index: 19, length: 4, text: '${X}' },
      ],
    });
  });

  it.each([
    ['${}', 0, '${}'],
    ['x ${1ABC}', 2, '${1ABC}'],
    ['x ${A-B}', 2, '${A-B}'],
    ['open ${HOST', 5, '${HOST'],
  ])('reports the malformed reference in %j', (text, index, written) => {
    const { problems } = interpolateEnv(text, env);
    expect(problems).toEqual([{ kind: 'malformed', name: written, index, length: written.length, text: written }]);
  });

  it('does not treat own-prototype names as variables', () => {
    expect(interpolateEnv('${toString}', {}).problems).toHaveLength(1);
  });
});
