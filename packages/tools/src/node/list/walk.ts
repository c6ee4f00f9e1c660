import { constants, type Dirent } from 'node:fs';
import { readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { openInside } from '../open-inside.js';

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

/** Options of {@link walk}. */
export interface WalkOptions {
  /** The workspace's real root: no directory outside it is read. */
  root: string;
  maxDepth: number;
  signal: AbortSignal;
}

/**
 * Walks a directory tree depth-first in name order (a directory's entries right after it), down
 * to `maxDepth` levels. It does not follow symbolic links (so it cannot leave the tree or loop)
 * and skips {@link SKIPPED_DIRECTORIES}. Each directory is opened with {@link openInside} and read
 * through that descriptor, so one swapped for a link to outside `root` during the walk is skipped,
 * never listed. Unreadable directories are skipped. Throws the abort reason when `signal` fires.
 */
export async function* walk(start: string, options: WalkOptions): AsyncGenerator<WalkEntry> {
  yield* walkDirectory(start, '', 1, options);
}

async function* walkDirectory(dir: string, rel: string, depth: number, options: WalkOptions): AsyncGenerator<WalkEntry> {
  options.signal.throwIfAborted();
  let entries: Dirent[];
  try {
    entries = await readDirectoryInside(options.root, dir);
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

/**
 * The entries of `dir`, read from a descriptor checked to be inside `root`: between the walk
 * seeing a directory and reading it, a racing process may have put a link to outside in its place.
 */
async function readDirectoryInside(root: string, dir: string): Promise<Dirent[]> {
  const handle = await openInside(root, dir, { flags: constants.O_RDONLY | constants.O_DIRECTORY });
  try {
    // /proc/self/fd names the directory opened, whatever happens to `dir` meanwhile.
    return await readdir(`/proc/self/fd/${handle.fd}`, { withFileTypes: true });
  } catch {
    // No /proc (macOS): openInside has checked that `dir` still names the directory opened.
    return await readdir(dir, { withFileTypes: true });
  } finally {
    await handle.close();
  }
}
