import { lstat, readlink, realpath } from 'node:fs/promises';
import { basename, dirname, isAbsolute, join, relative, resolve, sep } from 'node:path';
import { TroupeError } from '@troupe/core';
import { ToolErrorCode } from '../tool-error-code.js';

/** {@link ToolErrorCode.OutsideWorkspace}, by its older name. */
export const OUTSIDE_WORKSPACE = ToolErrorCode.OutsideWorkspace;

/** {@link ToolErrorCode.WorkspaceUnavailable}, by its older name. */
export const WORKSPACE_UNAVAILABLE = ToolErrorCode.WorkspaceUnavailable;

/** A path that resolves outside the workspace root (by `..`, an absolute path or a symbolic link). */
export class WorkspaceError extends TroupeError {
  constructor(message: string, data: { path: string; root: string }) {
    super(ToolErrorCode.OutsideWorkspace, message, { data });
  }
}

/** A path checked to stay inside the workspace. */
export interface WorkspacePath {
  /** The real path (symbolic links resolved, missing parts appended): what to operate on. */
  readonly real: string;
  /** The path relative to the workspace root, for messages (`.` for the root). */
  readonly display: string;
}

const MAX_LINK_HOPS = 40;

/**
 * The directory a file tool is confined to. Every path a model gives is resolved against it and
 * refused when it leads outside: `..` segments, absolute paths elsewhere, and symbolic links
 * (also dangling ones, and links in parent directories) whose target is outside. Paths with a NUL
 * byte and paths starting with `~` (which a model may mean as its home directory; nothing here
 * expands it) are refused too. The check runs on real paths; a link swapped in between the check
 * and the use is caught where the file is opened ({@link openInside}), except in the instant
 * between a write's check of its temporary file and its rename, and in a search by ripgrep.
 */
export class Workspace {
  readonly root: string;
  #realRoot: Promise<string> | undefined;

  constructor(root: string) {
    this.root = resolve(root);
  }

  /** Resolves `path` (relative to the root, or absolute inside it); throws {@link WorkspaceError} when it leads outside. */
  async resolve(path: string): Promise<WorkspacePath> {
    refuseInvalid(path, this.root);
    const realRoot = await this.#rootReal();
    const absolute = isAbsolute(path) ? resolve(path) : resolve(this.root, path);
    if (!inside(this.root, absolute) && !inside(realRoot, absolute)) {
      throw new WorkspaceError(`path "${path}" is outside the workspace ${this.root}`, { path, root: this.root });
    }
    const real = await realPathAllowingMissing(absolute, 0);
    if (!inside(realRoot, real)) {
      throw new WorkspaceError(`path "${path}" leads outside the workspace ${this.root} through a symbolic link`, { path, root: this.root });
    }
    return { real, display: this.display(real, realRoot) };
  }

  /** `real` relative to the root, `/`-separated (`.` for the root itself). */
  display(real: string, realRoot: string): string {
    const rel = relative(realRoot, real);
    return rel === '' ? '.' : rel.split(sep).join('/');
  }

  /** The real path of the root (resolved once). */
  realRoot(): Promise<string> {
    return this.#rootReal();
  }

  #rootReal(): Promise<string> {
    this.#realRoot ??= realpath(this.root).catch((error: unknown) => {
      this.#realRoot = undefined;
      throw new TroupeError(
        ToolErrorCode.WorkspaceUnavailable,
        `the workspace ${this.root} is not usable: ${error instanceof Error ? error.message : String(error)}`,
        { cause: error },
      );
    });
    return this.#realRoot;
  }
}

/** Refuses what no workspace accepts: a NUL byte (the OS would cut the path there) and a leading `~`. */
function refuseInvalid(path: string, root: string): void {
  if (path.includes('\0')) {
    throw new TroupeError(ToolErrorCode.InvalidPath, `path ${JSON.stringify(path)} contains a NUL byte`, { data: { path, root } });
  }
  if (path === '~' || path.startsWith('~/')) {
    throw new TroupeError(
      ToolErrorCode.InvalidPath,
      `path "${path}" starts with ~, which file tools do not expand to a home directory; give a path relative to the workspace ${root}`,
      { data: { path, root } },
    );
  }
}

/** Whether `path` is `root` or below it. */
export function inside(root: string, path: string): boolean {
  const rel = relative(root, path);
  return !(rel === '..' || rel.startsWith(`..${sep}`) || isAbsolute(rel));
}

/** Like `realpath`, for paths that may not exist yet: resolves what exists (following dangling links) and appends the rest. */
async function realPathAllowingMissing(path: string, hops: number): Promise<string> {
  try {
    return await realpath(path);
  } catch (error) {
    if (!isMissing(error) || hops > MAX_LINK_HOPS) throw error;
  }
  const stat = await lstat(path).catch(() => undefined);
  if (stat?.isSymbolicLink() === true) {
    const target = resolve(dirname(path), await readlink(path));
    return realPathAllowingMissing(target, hops + 1);
  }
  const parent = dirname(path);
  if (parent === path) return path;
  return join(await realPathAllowingMissing(parent, hops + 1), basename(path));
}

function isMissing(error: unknown): boolean {
  const code = (error as NodeJS.ErrnoException | undefined)?.code;
  return code === 'ENOENT' || code === 'ENOTDIR';
}
