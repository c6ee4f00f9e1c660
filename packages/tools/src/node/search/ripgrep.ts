import { spawn } from 'node:child_process';
import { createInterface } from 'node:readline';
import { clipLine, type SearchMatch, type SearchOutcome, type SearchQuery } from './search-match.js';

/**
 * Runs ripgrep at `rg` in the workspace (so `--glob` patterns are relative to it, as in the
 * JavaScript search), in path order, skipping `.git` and `node_modules` besides what ripgrep
 * skips itself (hidden and git-ignored files, binary files). Stops ripgrep once one match more
 * than the limit has arrived, and when `signal` fires.
 */
export function ripgrepSearch(rg: string, query: SearchQuery): Promise<SearchOutcome> {
  const args = [
    '--line-number',
    '--no-heading',
    '--with-filename',
    '--null',
    '--color',
    'never',
    '--sort',
    'path',
    '--glob',
    '!.git',
    '--glob',
    '!node_modules',
  ];
  if (query.ignoreCase) args.push('--ignore-case');
  if (query.include !== undefined) args.push('--glob', query.include);
  args.push('--regexp', query.pattern, '--', query.target);
  return new Promise((resolve, reject) => {
    const child = spawn(rg, args, { cwd: query.root, stdio: ['ignore', 'pipe', 'pipe'], signal: query.signal });
    const matches: SearchMatch[] = [];
    let truncated = false;
    let stderr = '';
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => {
      if (stderr.length < 4000) stderr += chunk;
    });
    const lines = createInterface({ input: child.stdout, crlfDelay: Number.POSITIVE_INFINITY });
    lines.on('line', (line) => {
      if (truncated) return;
      const match = parseLine(line);
      if (match === undefined) return;
      if (matches.length === query.limit) {
        truncated = true;
        child.kill();
        return;
      }
      matches.push(match);
    });
    child.on('error', (error) => (query.signal.aborted ? reject(query.signal.reason) : reject(error)));
    child.on('close', (code) => {
      if (query.signal.aborted) return reject(query.signal.reason);
      if (code === 2 && matches.length === 0) return resolve({ error: stderr.trim() || 'ripgrep failed' });
      resolve({ matches, truncated });
    });
  });
}

/** `path\0line:text` (ripgrep with `--null`), path relative to the workspace. */
function parseLine(line: string): SearchMatch | undefined {
  const nul = line.indexOf('\0');
  if (nul === -1) return undefined;
  const colon = line.indexOf(':', nul + 1);
  if (colon === -1) return undefined;
  const number = Number(line.slice(nul + 1, colon));
  if (!Number.isInteger(number)) return undefined;
  const path = line.slice(0, nul).replace(/^\.\//, '');
  return { path, line: number, text: clipLine(line.slice(colon + 1)) };
}
