import { constants, type Stats } from 'node:fs';
import { type FileHandle, open, readlink, realpath, stat } from 'node:fs/promises';
import { TroupeError } from '@troupe/core';
import { ToolErrorCode } from '../tool-error-code.js';
import { inside, WorkspaceError } from './workspace.js';

/** How {@link openInside} opens a file. */
export interface OpenInsideOptions {
  /** `fs.constants.O_*` flags (default read-only); `O_NOFOLLOW` is always added. */
  readonly flags?: number;
  /** The mode of a file the open creates. */
  readonly mode?: number;
  /** Refuse a regular file with several hard links ({@link hasSeveralLinks}). */
  readonly refuseHardLinks?: boolean;
  /** The path as the model gave it, for messages (default `path`). */
  readonly display?: string;
}

/**
 * Opens `path` (a real path that {@link Workspace.resolve} accepted) and checks, on the open
 * descriptor, that the file really is inside `realRoot`: a symbolic link swapped in after the
 * check, as the file itself (`O_NOFOLLOW`) or as a parent directory (the descriptor's path, from
 * `/proc/self/fd`), makes it throw a {@link WorkspaceError} instead of reading or writing outside.
 * Where `/proc` is missing, the path is resolved again and must still name the very file opened.
 * With `refuseHardLinks`, a regular file with several links throws (`hard_linked`). The caller
 * closes the handle.
 */
export async function openInside(realRoot: string, path: string, options: OpenInsideOptions = {}): Promise<FileHandle> {
  const display = options.display ?? path;
  const moved = (): WorkspaceError =>
    new WorkspaceError(`path "${display}" was moved outside the workspace ${realRoot} while it was being opened (a symbolic link swapped in)`, {
      path: display,
      root: realRoot,
    });
  let handle: FileHandle;
  try {
    handle = await open(path, (options.flags ?? constants.O_RDONLY) | constants.O_NOFOLLOW, options.mode);
  } catch (error) {
    // The checked path had no link as its last part: ELOOP here means one was swapped in since.
    if ((error as NodeJS.ErrnoException | undefined)?.code === 'ELOOP') throw moved();
    throw error;
  }
  try {
    const at = await openedPath(handle, path);
    if (at === undefined || !inside(realRoot, at)) throw moved();
    if (options.refuseHardLinks === true) {
      const info = await handle.stat();
      if (hasSeveralLinks(info)) {
        throw new TroupeError(
          ToolErrorCode.HardLinked,
          `${display} has ${info.nlink} hard links; file tools do not read or edit a file with several links, since another name for it may lie outside the workspace`,
          { data: { path: display, links: info.nlink } },
        );
      }
    }
    return handle;
  } catch (error) {
    await handle.close();
    throw error;
  }
}

/** Whether `info` is a regular file with more than one hard link (one of which may be outside the workspace). */
export function hasSeveralLinks(info: Stats): boolean {
  return info.isFile() && info.nlink > 1;
}

/** Where the open file really is, or `undefined` when that cannot be told. */
async function openedPath(handle: FileHandle, path: string): Promise<string | undefined> {
  try {
    return await readlink(`/proc/self/fd/${handle.fd}`);
  } catch {
    // No /proc (macOS): accept the path's real location only if it is still the very file opened.
  }
  const real = await realpath(path).catch(() => undefined);
  if (real === undefined) return undefined;
  const [now, opened] = await Promise.all([stat(real), handle.stat()]);
  return now.dev === opened.dev && now.ino === opened.ino ? real : undefined;
}
