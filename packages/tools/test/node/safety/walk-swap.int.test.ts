/**
 * Proves that the directory walks of `list_files` and `search` stay inside the workspace when a
 * directory is swapped for a link to outside during the walk (issue #20). Deterministically: the
 * walk is lazy, so the test swaps a directory after the walk has seen it and before it reads it,
 * as a racing process would; and it hands ripgrep's post-check the lines ripgrep would print
 * after such a swap (outside text under an inside path) — none reaches the caller. Then, as a
 * real race, a process flips a directory between real and linked while `list_files` and `search`
 * (ripgrep and JavaScript engines) run again and again: no outside text or listed name ever shows.
 */
import { spawn } from 'node:child_process';
import { rename, symlink } from 'node:fs/promises';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createListFilesTool } from '../../../src/node/list/list-files-tool.js';
import { walk } from '../../../src/node/list/walk.js';
import { confirmedMatches } from '../../../src/node/search/confirmed-matches.js';
import { createSearchTool } from '../../../src/node/search/search-tool.js';
import { Workspace } from '../../../src/node/workspace.js';
import { testToolContext } from '../../tool-context.js';
import { tempWorkspace, textOf } from '../temp-workspace.js';

const SECRET = 'outside-secret-line';

let ws: Awaited<ReturnType<typeof tempWorkspace>>;
let outside: Awaited<ReturnType<typeof tempWorkspace>>;
let realRoot: string;

beforeEach(async () => {
  ws = await tempWorkspace({ 'a.txt': 'inside a', 'dir/inside.txt': 'inside line', 'z.txt': 'inside z' });
  outside = await tempWorkspace({ 'secret.txt': SECRET, 'deeper/secret-too.txt': SECRET });
  realRoot = await new Workspace(ws.root).realRoot();
});

afterEach(async () => {
  await ws.remove();
  await outside.remove();
});

/** What a racing process does: `dir` becomes a link to the outside directory. */
async function swapDir(): Promise<void> {
  await rename(ws.path('dir'), ws.path('dir-before'));
  await symlink(outside.root, ws.path('dir'));
}

describe('a directory swapped for a link during a walk', () => {
  it('walks the whole tree without a swap', async () => {
    const paths: string[] = [];
    for await (const entry of walk(realRoot, { root: realRoot, maxDepth: 10, signal: new AbortController().signal })) paths.push(entry.path);
    expect(paths).toEqual(['a.txt', 'dir', 'dir/inside.txt', 'z.txt']);
  });

  it('does not list the outside directory swapped in after the walk saw the inside one', async () => {
    const paths: string[] = [];
    for await (const entry of walk(realRoot, { root: realRoot, maxDepth: 10, signal: new AbortController().signal })) {
      paths.push(entry.path);
      // The walk has seen `dir` as a directory and will read it next.
      if (entry.path === 'dir') await swapDir();
    }
    expect(paths).toEqual(['a.txt', 'dir', 'z.txt']);
  });

  it('drops a ripgrep line read through a swapped directory, and one whose file is no longer that text', async () => {
    const kept = { path: 'dir/inside.txt', line: 1, text: 'inside line' };
    // After the swap back, ripgrep's line no longer is what the file inside says.
    const swappedBack = { path: 'dir/inside.txt', line: 1, text: SECRET };
    expect(await confirmedMatches(realRoot, [kept, swappedBack])).toEqual({ matches: [kept], dropped: 0 });
    await swapDir();
    // Still swapped: the path leads outside.
    expect(await confirmedMatches(realRoot, [{ path: 'dir/secret.txt', line: 1, text: SECRET }])).toEqual({ matches: [], dropped: 0 });
  });
});

describe('a directory flipping between real and linked while tools walk', () => {
  /** Starts a shell loop that swaps `dir` for a link to outside and back as fast as it can. */
  function flipper(): { stop(): Promise<void> } {
    const script = `while :; do mv dir dir-real && ln -s "$1" dir && rm dir && mv dir-real dir; done`;
    // Its own process group: stopping it must also stop the mv/ln/rm it is running, or one still
    // running races the workspace's removal (ENOTEMPTY).
    const child = spawn('sh', ['-c', script, 'flip', outside.root], { cwd: ws.root, stdio: 'ignore', detached: true });
    return {
      stop: () =>
        new Promise<void>((resolve) => {
          child.once('exit', () => resolve());
          process.kill(-(child.pid ?? 0), 'SIGKILL');
        }),
    };
  }

  const rounds = 40;

  it.each(['ripgrep', 'js'] as const)('never shows outside text or names (search with %s, list_files)', async (engine) => {
    const search = createSearchTool({ workspace: ws.root, settings: { engine } });
    const list = createListFilesTool({ workspace: ws.root });
    const found: string[] = [];
    const listed: string[] = [];
    const flip = flipper();
    try {
      for (let i = 0; i < rounds; i++) {
        found.push(textOf((await search.execute({ pattern: 'line' }, testToolContext())).content));
        listed.push(textOf((await list.execute({ depth: 5 }, testToolContext())).content));
      }
    } finally {
      await flip.stop();
    }
    // No outside text from search (a failed search may name a path it could not read); no outside name from list_files.
    expect(found.filter((text) => text.includes(SECRET))).toEqual([]);
    expect(listed.filter((text) => text.includes('secret'))).toEqual([]);
  });
});
