import { readFile } from 'node:fs/promises';

/**
 * Reads a UTF-8 text file. Injected into the loader so tests can serve files from memory.
 *
 * Contract: resolves with the whole text, or rejects (ideally with a Node-style `code` such as
 * `ENOENT`); the loader turns a rejection into a problem at the place the file was named.
 */
export type ReadTextFile = (path: string) => Promise<string>;

/** The default {@link ReadTextFile}: the file system. */
export const readTextFileFromDisk: ReadTextFile = (path) => readFile(path, 'utf8');

/** A short, human reason for a failed read (`file not found`), from a Node error code when there is one. */
export function describeReadError(error: unknown): string {
  const code = typeof error === 'object' && error !== null && 'code' in error ? (error as { code: unknown }).code : undefined;
  switch (code) {
    case 'ENOENT':
      return 'file not found';
    case 'EISDIR':
      return 'is a directory, not a file';
    case 'EACCES':
    case 'EPERM':
      return 'permission denied';
    default:
      return error instanceof Error ? error.message : String(error);
  }
}
