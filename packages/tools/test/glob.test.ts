/**
 * Proves the glob matcher used by list_files and the JavaScript search: `*` and `?` stay within
 * a segment, `**` spans any number of segments (also none), braces give alternatives, character
 * classes work, regex characters are literal, and a glob without `/` matches base names.
 */
import { describe, expect, it } from 'vitest';
import { globMatcher, globToRegExp } from '../src/glob.js';

describe('globToRegExp', () => {
  it.each([
    ['*.ts', 'a.ts', true],
    ['*.ts', 'src/a.ts', false],
    ['src/*.ts', 'src/a.ts', true],
    ['src/*.ts', 'src/x/a.ts', false],
    ['src/**/*.ts', 'src/a.ts', true],
    ['src/**/*.ts', 'src/x/y/a.ts', true],
    ['src/**', 'src/x/y', true],
    ['**/test/*.ts', 'test/a.ts', true],
    ['**/test/*.ts', 'a/b/test/a.ts', true],
    ['*.{ts,tsx}', 'a.tsx', true],
    ['*.{ts,tsx}', 'a.js', false],
    ['file?.txt', 'file1.txt', true],
    ['file?.txt', 'file10.txt', false],
    ['[ab].md', 'b.md', true],
    ['[!ab].md', 'b.md', false],
    ['a+b(1).txt', 'a+b(1).txt', true],
    ['a.b', 'axb', false],
  ])('%s against %s is %s', (glob, path, expected) => {
    expect(globToRegExp(glob).test(path)).toBe(expected);
  });
});

describe('globMatcher', () => {
  it('matches base names when the glob has no slash', () => {
    const match = globMatcher('*.test.ts');
    expect(match('src/deep/x.test.ts')).toBe(true);
    expect(match('src/deep/x.ts')).toBe(false);
  });

  it('matches whole relative paths when it has one', () => {
    expect(globMatcher('src/*.ts')('src/a.ts')).toBe(true);
    expect(globMatcher('src/*.ts')('lib/src/a.ts')).toBe(false);
  });
});
