import { type FileHandle, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { globMatcher } from '../../glob.js';
import { looksBinary } from '../files/file-kind.js';
import { walk } from '../list/walk.js';
import { openInside } from '../open-inside.js';
import { clipLine, type SearchMatch, type SearchOutcome, type SearchQuery } from './search-match.js';

/** Files larger than this are skipped by the JavaScript search. */
const MAX_FILE_BYTES = 8 * 1024 * 1024;

/**
 * The search used when ripgrep is not installed: walks the target (skipping `.git`,
 * `node_modules`, binary, very large and hard-linked files, not following links) and tests each line with a
 * JavaScript regular expression. Unlike ripgrep it does not read `.gitignore`.
 */
export async function jsSearch(query: SearchQuery): Promise<SearchOutcome> {
  let regex: RegExp;
  try {
    regex = new RegExp(query.pattern, query.ignoreCase ? 'i' : '');
  } catch (error) {
    return { error: `invalid regular expression: ${error instanceof Error ? error.message : String(error)}` };
  }
  const include = query.include === undefined ? undefined : globMatcher(query.include);
  const matches: SearchMatch[] = [];
  const start = join(query.root, query.target);
  const prefix = query.target === '.' ? '' : `${query.target}/`;
  const files = (await stat(start)).isDirectory()
    ? walk(start, { root: query.root, maxDepth: Number.POSITIVE_INFINITY, signal: query.signal })
    : single(query.target, start);
  for await (const entry of files) {
    if (entry.kind !== 'file') continue;
    const path = entry.depth === 0 ? entry.path : `${prefix}${entry.path}`;
    if (include !== undefined && !include(path)) continue;
    const text = await readText(query.root, entry.absolute, query.signal);
    if (text === undefined) continue;
    const lines = text.split('\n');
    for (let i = 0; i < lines.length; i++) {
      if (!regex.test(lines[i] as string)) continue;
      matches.push({ path, line: i + 1, text: clipLine(lines[i] as string) });
      if (matches.length > query.limit) return { matches: matches.slice(0, query.limit), truncated: true };
    }
  }
  return { matches, truncated: false };
}

async function* single(path: string, absolute: string): AsyncGenerator<{ path: string; absolute: string; kind: 'file'; depth: number }> {
  yield { path, absolute, kind: 'file', depth: 0 };
}

/** The file's text, or `undefined` for binary, huge, unreadable or hard-linked files, and for one moved outside `root`. */
async function readText(root: string, path: string, signal: AbortSignal): Promise<string | undefined> {
  signal.throwIfAborted();
  let handle: FileHandle | undefined;
  try {
    handle = await openInside(root, path, { refuseHardLinks: true });
    const info = await handle.stat();
    if (info.size > MAX_FILE_BYTES) return undefined;
    const bytes = await handle.readFile();
    return looksBinary(bytes) ? undefined : bytes.toString('utf8');
  } catch {
    return undefined;
  } finally {
    await handle?.close();
  }
}
