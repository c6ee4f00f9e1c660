import { DEFAULT_RUNS_DIR } from '@troupe/runtime';

/** The `--runs-dir` flag that finds a run recorded in `dir` again; nothing for the default directory. */
export function runsDirFlag(dir: string): string {
  return dir === DEFAULT_RUNS_DIR ? '' : ` --runs-dir ${dir}`;
}
