import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { parseEnv } from 'node:util';
import type { CliIo } from '../cli-io.js';

/** What {@link loadDotenv} did: the files it read, and the ones it could not read. */
export interface DotenvReport {
  loaded: string[];
  problems: string[];
}

/**
 * Adds to `env` the variables of the `.env` file in each of `dirs`, in order, that `env` does not
 * already have: what the process was started with wins, then the first directory given, and so
 * on. A directory without a `.env` is skipped; an unreadable one is reported, not thrown. Files
 * are parsed with Node's own `util.parseEnv` (`KEY=value`, quotes, `#` comments, `export KEY=`;
 * no `${VAR}` expansion). `troupe` hands it `process.env`, so tools and the processes they start
 * see the variables too.
 */
export function loadDotenv(env: Record<string, string | undefined>, dirs: readonly string[]): DotenvReport {
  const report: DotenvReport = { loaded: [], problems: [] };
  for (const file of new Set(dirs.map((dir) => join(dir, '.env')))) {
    let text: string;
    try {
      text = readFileSync(file, 'utf8');
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      if (code !== 'ENOENT' && code !== 'EISDIR' && code !== 'ENOTDIR') report.problems.push(`cannot read ${file}: ${(error as Error).message}`);
      continue;
    }
    for (const [name, value] of Object.entries(parseEnv(text))) {
      if (env[name] === undefined && value !== undefined) env[name] = value;
    }
    report.loaded.push(file);
  }
  return report;
}

/**
 * What `troupe` does before each command: adds to `io.env` the variables of the `.env` in `cwd`,
 * then of the one next to the command's graph file, that it does not already have (see
 * {@link loadDotenv}). A `.env` that cannot be read is a warning on stderr.
 */
export function loadProjectEnv(io: CliIo, cwd: string, graphFile?: string): void {
  const report = loadDotenv(io.env, graphFile === undefined ? [cwd] : [cwd, dirname(graphFile)]);
  for (const problem of report.problems) io.stderr(`troupe: warning: ${problem}\n`);
}
