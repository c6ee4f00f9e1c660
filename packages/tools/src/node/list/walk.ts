import type { Dirent } from 'node:fs';
import { readdir } from 'node:fs/promises';
import { join } from 'node:path';

/** Directories no listing or search descends into. */
export const SKIPPED_DIRECTORIES: ReadonlySet<string> = new Set(['.git', 'node_modules']);

/** One entry met by {@link walk}. */
export interface WalkEntry {
  /** Relative to the walk's start, `/`-separated. */
  path: string;
  /** Absolute. */
  absolute: string;
  kind: 'file' | 'directory' | 'symlink' | 'other';
  /** 1 for the start's own entries. */
  depth: number;
}

/**
 * Walks a directory tree depth-first in name order (a directory's entries right after it), down
 * to `maxDepth` levels. It does not follow symbolic links (so it cannot leave the tree or loop)
 * and skips {@link SKIPPED_DIRECTORIES}. Unreadable directories are skipped. Throws the abort
 * reason when `signal` fires.
 */
export async function* walk(start: string, options: { maxDepth: number; signal: AbortSignal }): AsyncGenerator<WalkEntry> {
  yield* walkDirectory(start, '', 1, options);
}

async function* walkDirectory(dir: string, rel: string, depth: number, options: { maxDepth: number; signal: AbortSignal }): AsyncGenerator<WalkEntry> {
  options.signal.throwIfAborted();
  let entries: Dirent[];
  try {
    entries = await readdir(dir, { withFileTypes: true });
  } catch {
    return;
  }
  entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  for (const entry of entries) {
    const path = rel === '' ? entry.name : `${rel}/${entry.name}`;
    const absolute = join(dir, entry.name);
    const kind = entry.isSymbolicLink() ? 'symlink' : entry.isDirectory() ? 'directory' : entry.isFile() ? 'file' : 'other';
    if (kind === 'directory' && SKIPPED_DIRECTORIES.has(entry.name)) continue;
    yield { path, absolute, kind, depth };
    if (kind === 'directory' && depth < options.maxDepth) yield* walkDirectory(absolute, path, depth + 1, options);
  }
}
