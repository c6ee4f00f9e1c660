/**
 * Proves write_file and edit_file on real files: write_file creates parent directories, replaces
 * atomically (no temporary file left, permission bits kept) and refuses paths outside the
 * workspace; edit_file replaces a unique snippet, refuses a missing snippet naming the most
 * similar line, refuses an ambiguous one with the count and lines, replaces all on request,
 * matches LF snippets in CRLF files, and writes through a link inside the workspace without
 * replacing the link.
 */
import { lstat, readdir, readFile, stat, chmod, symlink } from 'node:fs/promises';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createEditFileTool } from '../../../src/node/files/edit-file-tool.js';
import { createWriteFileTool } from '../../../src/node/files/write-file-tool.js';
import { testToolContext } from '../../tool-context.js';
import { tempWorkspace } from '../temp-workspace.js';

let ws: Awaited<ReturnType<typeof tempWorkspace>>;
beforeEach(async () => {
  ws = await tempWorkspace({ 'code.ts': 'const a = 1;\nconst b = 2;\nconst a2 = 1;\n', 'dup.txt': 'x\nfoo\ny\nfoo\n', 'crlf.txt': 'one\r\ntwo\r\nthree\r\n' });
});
afterEach(() => ws.remove());

describe('write_file', () => {
  it('creates parents and replaces atomically, keeping the mode', async () => {
    const tool = createWriteFileTool({ workspace: ws.root });
    expect(tool.readOnly).toBe(false);
    const created = await tool.execute({ path: 'deep/er/new.txt', content: 'hello' }, testToolContext());
    expect(created).toEqual({ content: 'Created deep/er/new.txt (5 bytes).', details: { path: 'deep/er/new.txt', bytes: 5, created: true } });
    expect(await readFile(ws.path('deep/er/new.txt'), 'utf8')).toBe('hello');
    await chmod(ws.path('code.ts'), 0o640);
    expect((await tool.execute({ path: 'code.ts', content: 'x' }, testToolContext())).content).toBe('Replaced code.ts (1 bytes).');
    expect(((await stat(ws.path('code.ts'))).mode & 0o777).toString(8)).toBe('640');
    expect((await readdir(ws.root)).filter((name) => name.endsWith('.tmp'))).toEqual([]);
  });

  it('refuses paths outside the workspace and directories', async () => {
    const tool = createWriteFileTool({ workspace: ws.root });
    expect(await tool.execute({ path: '../escape.txt', content: 'x' }, testToolContext())).toMatchObject({
      isError: true,
      content: expect.stringMatching(/outside the workspace/),
    });
    expect(await tool.execute({ path: '.', content: 'x' }, testToolContext())).toMatchObject({ isError: true, content: 'write_file: .: is a directory' });
  });

  it('writes through a link inside the workspace, keeping the link', async () => {
    await symlink(ws.path('code.ts'), ws.path('link.ts'));
    await createWriteFileTool({ workspace: ws.root }).execute({ path: 'link.ts', content: 'via link' }, testToolContext());
    expect((await lstat(ws.path('link.ts'))).isSymbolicLink()).toBe(true);
    expect(await readFile(ws.path('code.ts'), 'utf8')).toBe('via link');
  });
});

describe('edit_file', () => {
  it('replaces a unique snippet', async () => {
    const result = await createEditFileTool({ workspace: ws.root }).execute(
      { path: 'code.ts', old_string: 'const b = 2;', new_string: 'const b = 3;' },
      testToolContext(),
    );
    expect(result).toEqual({ content: 'Edited code.ts: 1 replacement (line 2).', details: { path: 'code.ts', replacements: 1, lines: [2] } });
    expect(await readFile(ws.path('code.ts'), 'utf8')).toBe('const a = 1;\nconst b = 3;\nconst a2 = 1;\n');
  });

  it('names the most similar line when nothing matches', async () => {
    const result = await createEditFileTool({ workspace: ws.root }).execute(
      { path: 'code.ts', old_string: 'const  b = 2', new_string: 'x' },
      testToolContext(),
    );
    expect(result).toMatchObject({
      isError: true,
      content: 'edit_file: old_string was not found in code.ts; it must match exactly, whitespace included (the most similar line is 2: "const b = 2;")',
    });
  });

  it('refuses an ambiguous snippet with the count, unless replace_all', async () => {
    const tool = createEditFileTool({ workspace: ws.root });
    expect(await tool.execute({ path: 'dup.txt', old_string: 'foo', new_string: 'bar' }, testToolContext())).toMatchObject({
      isError: true,
      content:
        'edit_file: old_string occurs 2 times in dup.txt (lines 2, 4); include more surrounding lines to make it unique, or set replace_all to replace them all',
    });
    expect(await readFile(ws.path('dup.txt'), 'utf8')).toBe('x\nfoo\ny\nfoo\n');
    expect((await tool.execute({ path: 'dup.txt', old_string: 'foo', new_string: 'bar', replace_all: true }, testToolContext())).content).toBe(
      'Edited dup.txt: 2 replacements (lines 2, 4).',
    );
    expect(await readFile(ws.path('dup.txt'), 'utf8')).toBe('x\nbar\ny\nbar\n');
  });

  it('matches LF snippets in CRLF files', async () => {
    await createEditFileTool({ workspace: ws.root }).execute({ path: 'crlf.txt', old_string: 'one\ntwo', new_string: 'uno\ndos' }, testToolContext());
    expect(await readFile(ws.path('crlf.txt'), 'utf8')).toBe('uno\r\ndos\r\nthree\r\n');
  });

  it('refuses missing files and no-op edits', async () => {
    const tool = createEditFileTool({ workspace: ws.root });
    expect(await tool.execute({ path: 'none.ts', old_string: 'a', new_string: 'b' }, testToolContext())).toMatchObject({
      isError: true,
      content: 'edit_file: none.ts does not exist; use write_file to create a file',
    });
    expect(await tool.execute({ path: 'code.ts', old_string: 'a', new_string: 'a' }, testToolContext())).toMatchObject({
      isError: true,
      content: 'edit_file: old_string and new_string are the same; nothing to change',
    });
  });
});
