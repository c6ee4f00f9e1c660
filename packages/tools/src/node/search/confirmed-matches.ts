import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { TroupeError } from '@troupe/core';
import { ToolErrorCode } from '../../tool-error-code.js';
import { openInside } from '../open-inside.js';
import { clipLine, type SearchMatch } from './search-match.js';

/**
 * The matches of an outside engine (ripgrep) that the file tools' own checks confirm, and how many
 * files with several hard links were dropped. ripgrep reads by path, so a directory swapped for a
 * link to outside during its walk, or a hard-linked file (one of whose names may lie outside),
 * could put text from outside the workspace in its output. Each matched file is therefore opened
 * again with {@link openInside} (which refuses both), and a match is kept only if the line read
 * there is the line ripgrep reported: what reaches the model was read inside the workspace.
 * Paths are relative to `root`.
 */
export async function confirmedMatches(root: string, matches: readonly SearchMatch[]): Promise<{ matches: SearchMatch[]; dropped: number }> {
  const byPath = new Map<string, SearchMatch[]>();
  for (const m of matches) byPath.set(m.path, [...(byPath.get(m.path) ?? []), m]);
  const kept = new Set<SearchMatch>();
  let dropped = 0;
  for (const [path, found] of byPath) {
    const lines = await linesInside(root, path, Math.max(...found.map((m) => m.line)));
    if (lines === 'hard_linked') dropped += 1;
    else for (const m of found) if (lines !== undefined && lines[m.line - 1] === m.text) kept.add(m);
  }
  return { matches: matches.filter((m) => kept.has(m)), dropped };
}

/** The first `count` lines of the file (clipped as matches are), `hard_linked`, or `undefined` when it is not a file inside `root`. */
async function linesInside(root: string, path: string, count: number): Promise<string[] | 'hard_linked' | undefined> {
  let handle: Awaited<ReturnType<typeof openInside>>;
  try {
    handle = await openInside(root, join(root, path), { refuseHardLinks: true, display: path });
  } catch (error) {
    return error instanceof TroupeError && error.code === ToolErrorCode.HardLinked ? 'hard_linked' : undefined;
  }
  const lines: string[] = [];
  const reader = createInterface({ input: handle.createReadStream({ encoding: 'utf8', autoClose: false }), crlfDelay: Number.POSITIVE_INFINITY });
  try {
    for await (const line of reader) {
      lines.push(clipLine(line));
      // Only as far as the last match: a match near the top of a huge file reads little.
      if (lines.length >= count) break;
    }
    return lines;
  } catch {
    return undefined;
  } finally {
    reader.close();
    await handle.close();
  }
}
