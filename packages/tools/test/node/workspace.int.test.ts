/**
 * Proves the workspace confinement every file tool relies on, on a real temporary directory:
 * relative and absolute paths inside are accepted (also ones that do not exist yet), while `..`,
 * absolute paths elsewhere, symbolic links to outside (also dangling ones, and links in a parent
 * directory) are refused with a WorkspaceError; links that stay inside are fine; a workspace that
 * does not exist is reported as such.
 */
import { mkdir, symlink } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Workspace, WorkspaceError } from '../../src/node/workspace.js';
import { tempWorkspace } from './temp-workspace.js';

let ws: Awaited<ReturnType<typeof tempWorkspace>>;
let outside: Awaited<ReturnType<typeof tempWorkspace>>;

beforeAll(async () => {
  ws = await tempWorkspace({ 'src/a.ts': 'a', 'README.md': 'r' });
  outside = await tempWorkspace({ 'secret.txt': 's' });
  await symlink(outside.root, ws.path('out-dir'));
  await symlink(outside.path('secret.txt'), ws.path('secret-link'));
  await symlink(outside.path('not-yet.txt'), ws.path('dangling'));
  await symlink(ws.path('src/a.ts'), ws.path('inner-link'));
  await mkdir(ws.path('empty'));
});

afterAll(async () => {
  await ws.remove();
  await outside.remove();
});

async function refusal(path: string): Promise<string> {
  const error = await new Workspace(ws.root).resolve(path).then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(WorkspaceError);
  return (error as WorkspaceError).message;
}

describe('Workspace', () => {
  it('accepts paths inside, existing or not', async () => {
    const workspace = new Workspace(ws.root);
    expect((await workspace.resolve('src/a.ts')).display).toBe('src/a.ts');
    expect((await workspace.resolve(ws.path('README.md'))).display).toBe('README.md');
    expect((await workspace.resolve('new/deep/file.txt')).display).toBe('new/deep/file.txt');
    expect((await workspace.resolve('.')).display).toBe('.');
    expect((await workspace.resolve('src/../README.md')).display).toBe('README.md');
    expect((await workspace.resolve('inner-link')).display).toBe('src/a.ts');
  });

  it('refuses .. and absolute paths outside', async () => {
    expect(await refusal('../x')).toBe(`path "../x" is outside the workspace ${ws.root}`);
    expect(await refusal('src/../../x')).toMatch(/is outside the workspace/);
    expect(await refusal('/etc/passwd')).toMatch(/is outside the workspace/);
    expect(await refusal(tmpdir())).toMatch(/is outside the workspace/);
  });

  it('says so when the workspace itself does not exist', async () => {
    await expect(new Workspace(ws.path('missing')).resolve('a.txt')).rejects.toMatchObject({
      code: 'workspace_unavailable',
      message: expect.stringMatching(/^the workspace .*missing is not usable: /),
    });
  });

  it('refuses symbolic links that lead outside', async () => {
    expect(await refusal('secret-link')).toBe(`path "secret-link" leads outside the workspace ${ws.root} through a symbolic link`);
    expect(await refusal('out-dir/secret.txt')).toMatch(/through a symbolic link/);
    expect(await refusal('out-dir/new.txt')).toMatch(/through a symbolic link/);
    expect(await refusal('dangling')).toMatch(/through a symbolic link/);
  });
});
