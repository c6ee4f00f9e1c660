import { randomBytes } from 'node:crypto';
import { chmod, mkdir, rename, rm, stat, writeFile } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';

/**
 * Writes `content` to `path` atomically: into a temporary file next to it, then renamed over it,
 * so a reader never sees half a file and a failed write leaves the old one. Parent directories
 * are created. An existing file keeps its permission bits. `signal` aborts before the rename.
 * Returns whether the file existed.
 */
export async function writeFileAtomic(path: string, content: string, signal: AbortSignal): Promise<{ existed: boolean }> {
  const previous = await stat(path).catch(() => undefined);
  if (previous?.isDirectory() === true) throw Object.assign(new Error(`${path} is a directory`), { code: 'EISDIR' });
  await mkdir(dirname(path), { recursive: true });
  const temp = join(dirname(path), `.${basename(path)}.${randomBytes(6).toString('hex')}.tmp`);
  try {
    await writeFile(temp, content, { signal, flag: 'wx' });
    if (previous !== undefined) await chmod(temp, previous.mode & 0o7777);
    signal.throwIfAborted();
    await rename(temp, path);
  } catch (error) {
    await rm(temp, { force: true });
    throw error;
  }
  return { existed: previous !== undefined };
}
