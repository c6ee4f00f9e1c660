import { lstat } from 'node:fs/promises';
import { join } from 'node:path';
import { hasSeveralLinks } from '../open-inside.js';
import type { SearchMatch } from './search-match.js';

/**
 * The matches not in files with several hard links (ripgrep reads those; one of their names may
 * lie outside the workspace, so their lines must not reach the model), and how many files were
 * dropped. Paths are relative to `root`.
 */
export async function withoutHardLinked(root: string, matches: readonly SearchMatch[]): Promise<{ matches: SearchMatch[]; dropped: number }> {
  const linked = new Set<string>();
  for (const path of new Set(matches.map((m) => m.path))) {
    const info = await lstat(join(root, path)).catch(() => undefined);
    if (info !== undefined && hasSeveralLinks(info)) linked.add(path);
  }
  return { matches: matches.filter((m) => !linked.has(m.path)), dropped: linked.size };
}
