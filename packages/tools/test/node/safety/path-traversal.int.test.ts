/**
 * Proves that every file tool (read_file, write_file, edit_file, list_files, search, the latter
 * with both engines) refuses the path traversal variants a model might try, on real files: `..`,
 * absolute paths elsewhere, `~`, NUL bytes, symbolic links out (to a file, to a directory, as a
 * parent), and that URL-encoded `%2e%2e%2f` stays a literal name inside the workspace. A hard link
 * to an outside file is neither read (its content does not leak) nor modified by any tool. After
 * each probe the outside directory is unchanged.
 */
import { link, mkdir, readdir, readFile, symlink } from 'node:fs/promises';
import type { Tool, ToolResult } from '@troupe/core';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createEditFileTool } from '../../../src/node/files/edit-file-tool.js';
import { createReadFileTool } from '../../../src/node/files/read-file-tool.js';
import { createWriteFileTool } from '../../../src/node/files/write-file-tool.js';
import { createListFilesTool } from '../../../src/node/list/list-files-tool.js';
import { createSearchTool } from '../../../src/node/search/search-tool.js';
import { testToolContext } from '../../tool-context.js';
import { tempWorkspace, textOf } from '../temp-workspace.js';

const SECRET = 'TOP-SECRET-outside-value';

let ws: Awaited<ReturnType<typeof tempWorkspace>>;
let outside: Awaited<ReturnType<typeof tempWorkspace>>;

beforeEach(async () => {
  ws = await tempWorkspace({ 'inside.txt': 'inside\n' });
  outside = await tempWorkspace({ 'secret.txt': `${SECRET}\n`, 'dir/nested.txt': `${SECRET}\n` });
  await symlink(outside.path('secret.txt'), ws.path('file-link'));
  await symlink(outside.root, ws.path('dir-link'));
  await symlink(outside.path('missing.txt'), ws.path('dangling-link'));
  // Hard links cannot cross file systems; both temporary directories live in the same tmpdir.
  await link(outside.path('secret.txt'), ws.path('hard-link.txt'));
});

afterEach(async () => {
  await ws.remove();
  await outside.remove();
});

/** Every file tool, with the arguments that make it read or write `path`. */
function calls(path: string): { name: string; tool: Tool; args: Record<string, unknown>; writes: boolean }[] {
  const workspace = ws.root;
  return [
    { name: 'read_file', tool: createReadFileTool({ workspace }), args: { path }, writes: false },
    { name: 'write_file', tool: createWriteFileTool({ workspace }), args: { path, content: 'pwned' }, writes: true },
    { name: 'edit_file', tool: createEditFileTool({ workspace }), args: { path, old_string: SECRET, new_string: 'pwned' }, writes: true },
    { name: 'list_files', tool: createListFilesTool({ workspace }), args: { path }, writes: false },
    { name: 'search', tool: createSearchTool({ workspace, settings: { engine: 'js' } }), args: { pattern: 'SECRET', path }, writes: false },
    { name: 'search', tool: createSearchTool({ workspace, settings: { engine: 'auto' } }), args: { pattern: 'SECRET', path }, writes: false },
  ];
}

async function outsideState(): Promise<string> {
  const names = (await readdir(outside.root, { recursive: true })).sort();
  const secret = await readFile(outside.path('secret.txt'), 'utf8');
  return JSON.stringify({ names, secret });
}

async function run(call: ReturnType<typeof calls>[number]): Promise<ToolResult> {
  return call.tool.execute(call.args, testToolContext());
}

const REFUSED: readonly [string, (p: string) => string, RegExp][] = [
  ['..', () => '../escape.txt', /outside the workspace/],
  ['.. deep', () => 'a/b/../../../escape.txt', /outside the workspace/],
  ['absolute elsewhere', (p) => p, /outside the workspace/],
  ['absolute /etc/passwd', () => '/etc/passwd', /outside the workspace/],
  ['~', () => '~/.ssh/id_rsa', /starts with ~/],
  ['~ alone', () => '~', /starts with ~/],
  ['NUL byte', () => 'inside.txt\0../../etc/passwd', /NUL byte/],
  ['symlink to a file', () => 'file-link', /symbolic link/],
  ['symlink to a directory', () => 'dir-link', /symbolic link/],
  ['symlink as a parent', () => 'dir-link/dir/nested.txt', /symbolic link/],
  ['dangling symlink', () => 'dangling-link', /symbolic link/],
];

describe('path traversal variants', () => {
  for (const [label, pathOf, message] of REFUSED) {
    it(`refuses ${label} in every file tool`, async () => {
      const before = await outsideState();
      for (const call of calls(pathOf(outside.path('secret.txt')))) {
        const result = await run(call);
        expect(result.isError, `${call.name} ${label}`).toBe(true);
        expect(textOf(result.content), `${call.name} ${label}`).toMatch(message);
        expect(textOf(result.content)).not.toContain(SECRET);
        expect(await outsideState(), `${call.name} ${label}`).toBe(before);
      }
      expect(await readdir(ws.root)).not.toContain('~');
    });
  }

  it('keeps URL-encoded %2e%2e%2f a literal name inside the workspace', async () => {
    const before = await outsideState();
    const path = '%2e%2e%2f%2e%2e%2fescape.txt';
    for (const call of calls(path)) {
      const result = await run(call);
      expect(textOf(result.content)).not.toContain(SECRET);
    }
    // write_file created it inside, under its literal name; nothing appeared outside.
    expect(await readFile(ws.path(path), 'utf8')).toBe('pwned');
    expect(await outsideState()).toBe(before);
  });
});

describe('a hard link to an outside file', () => {
  it('is not read by read_file, edit_file or search, and its target is not modified', async () => {
    const before = await outsideState();
    for (const call of calls('hard-link.txt')) {
      if (call.name === 'write_file' || call.name === 'list_files') continue;
      const result = await run(call);
      expect(textOf(result.content), call.name).not.toContain(SECRET);
      if (call.name !== 'search') expect(textOf(result.content), call.name).toMatch(/has 2 hard links/);
    }
    for (const call of calls('.').filter((c) => c.name === 'search')) {
      expect(textOf((await run(call)).content)).not.toContain(SECRET);
    }
    expect(await outsideState()).toBe(before);
  });

  it('is replaced, not written through, by write_file', async () => {
    const before = await outsideState();
    const [, write] = calls('hard-link.txt');
    expect((await run(write as ReturnType<typeof calls>[number])).isError).toBeUndefined();
    expect(await readFile(ws.path('hard-link.txt'), 'utf8')).toBe('pwned');
    expect(await outsideState()).toBe(before);
  });

  it('leaves a listing of names only', async () => {
    await mkdir(ws.path('sub'));
    const result = await createListFilesTool({ workspace: ws.root }).execute({}, testToolContext());
    expect(textOf(result.content)).toContain('hard-link.txt');
    expect(textOf(result.content)).not.toContain(SECRET);
  });
});
