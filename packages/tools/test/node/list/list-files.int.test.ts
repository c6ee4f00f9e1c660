/**
 * Proves list_files on a real tree: a sorted depth-first listing relative to the workspace with
 * directories marked by "/", the depth limit, glob patterns (base names and paths), .git and
 * node_modules skipped, symbolic links listed but not followed, the entry cap with its note, and
 * refusals for paths outside the workspace and for files.
 */
import { mkdir, symlink } from 'node:fs/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createListFilesTool } from '../../../src/node/list/list-files-tool.js';
import { testToolContext } from '../../tool-context.js';
import { tempWorkspace, textOf } from '../temp-workspace.js';

let ws: Awaited<ReturnType<typeof tempWorkspace>>;
beforeAll(async () => {
  ws = await tempWorkspace({
    'README.md': '',
    'src/a.ts': '',
    'src/b.test.ts': '',
    'src/deep/er/c.ts': '',
    '.git/HEAD': '',
    'node_modules/x/index.js': '',
    'docs/guide.md': '',
  });
  await mkdir(ws.path('empty'));
  await symlink(ws.path('src'), ws.path('src-link'));
});
afterAll(() => ws.remove());

async function list(args: Record<string, unknown>, settings?: Record<string, unknown>): Promise<string> {
  const tool = createListFilesTool(settings === undefined ? { workspace: ws.root } : { workspace: ws.root, settings });
  return textOf((await tool.execute(args, testToolContext())).content);
}

describe('list_files', () => {
  it('lists depth-first, skipping .git and node_modules, not following links', async () => {
    expect(await list({})).toBe(
      ['README.md', 'docs/', 'docs/guide.md', 'empty/', 'src/', 'src/a.ts', 'src/b.test.ts', 'src/deep/', 'src/deep/er/', 'src-link'].join('\n'),
    );
  });

  it('limits the depth and lists below a path', async () => {
    expect(await list({ depth: 1 })).toBe(['README.md', 'docs/', 'empty/', 'src/', 'src-link'].join('\n'));
    expect(await list({ path: 'src', depth: 1 })).toBe(['src/a.ts', 'src/b.test.ts', 'src/deep/'].join('\n'));
  });

  it('filters with a glob, at any depth', async () => {
    expect(await list({ pattern: '*.ts' })).toBe(['src/a.ts', 'src/b.test.ts', 'src/deep/er/c.ts'].join('\n'));
    expect(await list({ pattern: 'deep/**/*.ts', path: 'src' })).toBe('src/deep/er/c.ts');
    expect(await list({ pattern: '*.py' })).toBe('no paths under . match *.py');
    expect(await list({ path: 'empty' })).toBe('empty is empty');
  });

  it('cuts long lists with a note', async () => {
    expect(await list({}, { maxEntries: 3 })).toBe('README.md\ndocs/\ndocs/guide.md\n\n[list cut at 3 entries; narrow it with path, pattern or depth]');
  });

  it('refuses paths outside the workspace, and files', async () => {
    const tool = createListFilesTool({ workspace: ws.root });
    expect(tool.readOnly).toBe(true);
    expect(await tool.execute({ path: '..' }, testToolContext())).toMatchObject({ isError: true, content: expect.stringMatching(/outside the workspace/) });
    expect(await tool.execute({ path: 'README.md' }, testToolContext())).toMatchObject({ isError: true, content: 'list_files: README.md is not a directory' });
  });
});
