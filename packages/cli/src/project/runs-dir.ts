import { statSync, type Stats } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { DEFAULT_RUNS_DIR } from '@troupe/runtime';

/** Where to look for the runs folder: the working directory, and the graph file of the command if it has one. */
export interface RunsDirLookup {
  cwd: string;
  graphFile?: string;
}

/**
 * The runs folder a command uses when `--runs-dir` is not given, so that `troupe runs` works from
 * any subdirectory of a project:
 * 1. the nearest `.troupe` folder, walking up from `cwd` (up to the root of the git repository
 *    `cwd` is in, so a stray `~/.troupe` is not picked up by a project);
 * 2. else, for a command with a graph file, `.troupe` in the file's project root: the nearest
 *    directory holding a `package.json` or `.git`, walking up from the file's directory;
 * 3. else `.troupe` in `cwd`.
 * The result is `<that>/.troupe/runs`, relative to `cwd` (exactly `DEFAULT_RUNS_DIR` in case 3).
 */
export function findRunsDir(lookup: RunsDirLookup): string {
  const cwd = resolve(lookup.cwd);
  const found = walkUp(cwd, (dir) => (isDirectory(join(dir, '.troupe')) ? 'take' : exists(join(dir, '.git')) ? 'stop' : 'next'));
  const home =
    found ??
    (lookup.graphFile === undefined
      ? undefined
      : walkUp(dirname(resolve(cwd, lookup.graphFile)), (dir) => (exists(join(dir, 'package.json')) || exists(join(dir, '.git')) ? 'take' : 'next')));
  if (home === undefined) return DEFAULT_RUNS_DIR;
  const runs = relative(cwd, join(home, '.troupe', 'runs'));
  return runs === relative('.', DEFAULT_RUNS_DIR) ? DEFAULT_RUNS_DIR : runs;
}

/** The first directory from `start` up to the root that `check` takes; `stop` ends the walk there without it. */
function walkUp(start: string, check: (dir: string) => 'take' | 'stop' | 'next'): string | undefined {
  for (let dir = start; ; dir = dirname(dir)) {
    const verdict = check(dir);
    if (verdict === 'take') return dir;
    if (verdict === 'stop' || dirname(dir) === dir) return undefined;
  }
}

function exists(path: string): boolean {
  return statOf(path) !== undefined;
}

function isDirectory(path: string): boolean {
  return statOf(path)?.isDirectory() === true;
}

/** The path's stats; `undefined` when it is missing or cannot be looked at (no permission). */
function statOf(path: string): Stats | undefined {
  try {
    return statSync(path, { throwIfNoEntry: false });
  } catch {
    return undefined;
  }
}
