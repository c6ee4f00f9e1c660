/**
 * Proves `.env` loading: variables the environment already has win, then the directories in the
 * order given; values are parsed as Node's `util.parseEnv` does (quotes, comments, `export`);
 * a missing file and a `.env` that is a directory are skipped; and the same file given twice is
 * read once.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { loadDotenv } from '../../src/project/dotenv.js';

let root = '';

beforeEach(() => {
  root = mkdtempSync(join(tmpdir(), 'troupe-dotenv-'));
});
afterEach(() => {
  rmSync(root, { recursive: true, force: true });
});

function envFile(dir: string, text: string): string {
  const path = join(root, dir);
  mkdirSync(path, { recursive: true });
  writeFileSync(join(path, '.env'), text);
  return path;
}

describe('loadDotenv', () => {
  it('adds what the environment lacks, the first directory before the next', () => {
    const first = envFile('first', 'A=first\n# a comment\nB="two words" # trailing\nexport C=exported\nSET=file\n');
    const second = envFile('second', 'A=second\nD=second\n');
    const env: Record<string, string | undefined> = { SET: 'process' };
    const report = loadDotenv(env, [first, second, first]);
    expect(env).toEqual({ SET: 'process', A: 'first', B: 'two words', C: 'exported', D: 'second' });
    expect(report).toEqual({ loaded: [join(first, '.env'), join(second, '.env')], problems: [] });
  });

  it('skips directories without a .env file, or with a directory named .env', () => {
    mkdirSync(join(root, 'odd/.env'), { recursive: true });
    const env: Record<string, string | undefined> = {};
    expect(loadDotenv(env, [join(root, 'none'), join(root, 'odd')])).toEqual({ loaded: [], problems: [] });
    expect(env).toEqual({});
  });
});
