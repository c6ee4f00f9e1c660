/**
 * Proves that a symbolic link swapped in after the workspace check is caught where the file is
 * opened, deterministically: the test runs the same two steps every file tool runs
 * (`Workspace.resolve`, then `openInside` or `writeFileAtomic`) and swaps the path between them,
 * as a racing process would. A parent directory replaced by a link to outside, and the file itself
 * replaced by a link, are refused with a WorkspaceError; nothing outside is read, created or
 * changed. Without the swap the same calls succeed.
 */
import { constants } from 'node:fs';
import { readdir, readFile, rename, rm, symlink } from 'node:fs/promises';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { writeFileAtomic } from '../../../src/node/files/atomic-write.js';
import { openInside } from '../../../src/node/open-inside.js';
import { Workspace, WorkspaceError } from '../../../src/node/workspace.js';
import { tempWorkspace } from '../temp-workspace.js';

const SECRET = 'outside secret';

let ws: Awaited<ReturnType<typeof tempWorkspace>>;
let outside: Awaited<ReturnType<typeof tempWorkspace>>;
let workspace: Workspace;
let realRoot: string;

beforeEach(async () => {
  ws = await tempWorkspace({ 'dir/file.txt': 'inside' });
  outside = await tempWorkspace({ 'file.txt': SECRET });
  workspace = new Workspace(ws.root);
  realRoot = await workspace.realRoot();
});

afterEach(async () => {
  await ws.remove();
  await outside.remove();
});

/** What a racing process does: the checked directory `dir` becomes a link to the outside one. */
async function swapParent(): Promise<void> {
  await rename(ws.path('dir'), ws.path('dir-before'));
  await symlink(outside.root, ws.path('dir'));
}

async function outsideState(): Promise<string> {
  return JSON.stringify({ names: (await readdir(outside.root)).sort(), secret: await readFile(outside.path('file.txt'), 'utf8') });
}

describe('a symbolic link swapped in between the check and the open', () => {
  it('opens normally without a swap', async () => {
    const file = await workspace.resolve('dir/file.txt');
    const handle = await openInside(realRoot, file.real, { display: file.display });
    expect(await handle.readFile('utf8').finally(() => handle.close())).toBe('inside');
  });

  it('refuses to read when a parent was swapped for a link to outside', async () => {
    const file = await workspace.resolve('dir/file.txt');
    await swapParent();
    const error = await openInside(realRoot, file.real, { display: file.display }).then(
      async (handle) => {
        await handle.close();
        return undefined;
      },
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(WorkspaceError);
    expect((error as Error).message).toBe(
      `path "dir/file.txt" was moved outside the workspace ${realRoot} while it was being opened (a symbolic link swapped in)`,
    );
  });

  it('refuses to read when the file itself was swapped for a link', async () => {
    const file = await workspace.resolve('dir/file.txt');
    await rm(ws.path('dir/file.txt'));
    await symlink(outside.path('file.txt'), ws.path('dir/file.txt'));
    await expect(openInside(realRoot, file.real, { flags: constants.O_RDONLY, display: file.display })).rejects.toBeInstanceOf(WorkspaceError);
  });

  it('refuses to create a file when a parent was swapped, leaving nothing outside', async () => {
    const before = await outsideState();
    const file = await workspace.resolve('dir/new.txt');
    await swapParent();
    await expect(writeFileAtomic(realRoot, file, 'pwned', new AbortController().signal)).rejects.toBeInstanceOf(WorkspaceError);
    expect(await outsideState()).toBe(before);
  });

  it('refuses to replace a file when a parent was swapped, leaving the outside file unchanged', async () => {
    const before = await outsideState();
    const file = await workspace.resolve('dir/file.txt');
    await swapParent();
    await expect(writeFileAtomic(realRoot, file, 'pwned', new AbortController().signal)).rejects.toBeInstanceOf(WorkspaceError);
    expect(await outsideState()).toBe(before);
    expect(await readFile(ws.path('dir-before/file.txt'), 'utf8')).toBe('inside');
  });
});
