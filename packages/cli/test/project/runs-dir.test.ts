/**
 * Proves where runs are recorded without `--runs-dir`: the nearest `.troupe` walking up from the
 * working directory, but not past the root of its git repository (a `.troupe` above it, such as
 * one in the home directory, is not taken); else the graph file's project root (nearest
 * package.json or .git); else the working directory; always as a path relative to it, and
 * exactly the default when it is the working directory's own.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DEFAULT_RUNS_DIR } from '@troupe/runtime';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { findRunsDir } from '../../src/project/runs-dir.js';

let root = '';

beforeEach(() => {
  root = mkdtempSync(join(tmpdir(), 'troupe-runs-dir-'));
});
afterEach(() => {
  rmSync(root, { recursive: true, force: true });
});

function dir(...parts: string[]): string {
  const path = join(root, ...parts);
  mkdirSync(path, { recursive: true });
  return path;
}

describe('findRunsDir', () => {
  it('takes the nearest .troupe above the working directory', () => {
    dir('repo/.git');
    dir('repo/.troupe');
    dir('repo/packages/a/.troupe');
    expect(findRunsDir({ cwd: dir('repo/src/deep') })).toBe('../../.troupe/runs');
    expect(findRunsDir({ cwd: dir('repo/packages/a/src') })).toBe('../.troupe/runs');
    expect(findRunsDir({ cwd: dir('repo') })).toBe(DEFAULT_RUNS_DIR);
  });

  it('does not walk past the git repository root', () => {
    dir('home/.troupe');
    dir('home/repo/.git');
    expect(findRunsDir({ cwd: dir('home/repo/src') })).toBe(DEFAULT_RUNS_DIR);
    // Outside any repository the walk goes on up.
    expect(findRunsDir({ cwd: dir('home/notes/today') })).toBe('../../.troupe/runs');
  });

  it("takes the graph file's project root when no .troupe is found", () => {
    dir('repo/.git');
    writeFileSync(join(dir('repo/agents'), 'package.json'), '{}');
    const graphFile = join(dir('repo/agents/graphs'), 'graph.yaml');
    expect(findRunsDir({ cwd: dir('repo/app'), graphFile })).toBe('../agents/.troupe/runs');
    expect(findRunsDir({ cwd: dir('repo/agents'), graphFile })).toBe(DEFAULT_RUNS_DIR);
    expect(findRunsDir({ cwd: dir('repo/app') })).toBe(DEFAULT_RUNS_DIR);
  });
});
