import { TroupeError, type ToolResult } from '@troupe/core';

/** An error result with `text` (what the model reads) and optional details. */
export function failed(text: string, details?: unknown): ToolResult {
  return details === undefined ? { content: text, isError: true } : { content: text, isError: true, details };
}

/** A result for a call aborted before it finished. */
export function abortedResult(tool: string): ToolResult {
  return failed(`${tool}: aborted`);
}

const FS_ERRORS: Readonly<Record<string, string>> = {
  ENOENT: 'no such file or directory',
  EACCES: 'permission denied',
  EPERM: 'operation not permitted',
  EISDIR: 'is a directory',
  ENOTDIR: 'a parent is not a directory',
  EEXIST: 'already exists',
  ENOSPC: 'no space left on the device',
  EROFS: 'read-only file system',
  ELOOP: 'too many levels of symbolic links',
  ENAMETOOLONG: 'name too long',
};

/**
 * Turns what a file tool threw into an error result the model can act on: workspace refusals as
 * they are, file system errors as "`path`: no such file or directory", anything else with its message.
 */
export function failure(tool: string, path: string, error: unknown): ToolResult {
  if (error instanceof TroupeError) return failed(`${tool}: ${error.message}`, { code: error.code });
  const code = (error as NodeJS.ErrnoException | undefined)?.code;
  if (code === 'ABORT_ERR') return abortedResult(tool);
  const known = code === undefined ? undefined : FS_ERRORS[code];
  if (known !== undefined) return failed(`${tool}: ${path}: ${known}`, { code });
  return failed(`${tool}: ${path}: ${error instanceof Error ? error.message : String(error)}`);
}
