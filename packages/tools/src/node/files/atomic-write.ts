import { randomBytes } from 'node:crypto';
import { constants } from 'node:fs';
import { mkdir, rename, rm, stat } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import { openInside } from '../open-inside.js';
import type { WorkspacePath } from '../workspace.js';

/**
 * Writes `content` to `file` atomically: into a temporary file next to it, then renamed over it,
 * so a reader never sees half a file and a failed write leaves the old one. Parent directories
 * are created. An existing file keeps its permission bits; a hard link is replaced, never written
 * through. The temporary file is opened with {@link openInside}, so a parent swapped for a link
 * to outside after the workspace check is refused before anything is written. `signal` aborts
 * before the rename. Returns whether the file existed.
 */
export async function writeFileAtomic(realRoot: string, file: WorkspacePath, content: string, signal: AbortSignal): Promise<{ existed: boolean }> {
  const path = file.real;
  const previous = await stat(path).catch(() => undefined);
  if (previous?.isDirectory() === true) throw Object.assign(new Error(`${path} is a directory`), { code: 'EISDIR' });
  await mkdir(dirname(path), { recursive: true });
  const temp = join(dirname(path), `.${basename(path)}.${randomBytes(6).toString('hex')}.tmp`);
  try {
    const handle = await openInside(realRoot, temp, {
      flags: constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL,
      mode: 0o666,
      display: file.display,
    });
    try {
      await handle.writeFile(content, { signal });
      if (previous !== undefined) await handle.chmod(previous.mode & 0o7777);
    } finally {
      await handle.close();
    }
    signal.throwIfAborted();
    await rename(temp, path);
  } catch (error) {
    // Also after a refused open: the temporary file it created (perhaps outside) is this call's own.
    await rm(temp, { force: true });
    throw error;
  }
  return { existed: previous !== undefined };
}
