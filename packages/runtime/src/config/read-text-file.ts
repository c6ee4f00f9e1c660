import { open } from 'node:fs/promises';
import { TroupeError } from '@troupe/core';
import { TextFileErrorCode } from '../runtime-error-codes.js';

/**
 * Reads a UTF-8 text file. Injected into the loader so tests can serve files from memory.
 *
 * Contract: resolves with the whole text, or rejects (ideally with a Node-style `code` such as
 * `ENOENT`, or a {@link TextFileError}); the loader turns a rejection into a problem at the place
 * the file was named.
 */
export type ReadTextFile = (path: string) => Promise<string>;

/** The largest graph file (or script file it names) the loader reads: 1 MB. */
export const GRAPH_FILE_MAX_BYTES = 1024 * 1024;

/**
 * A file refused before it is parsed, so the user sees one short line rather than a screen of
 * YAML errors. `message` names the file (`image.png is not a text file`, `big.yaml is 40 MB; graph
 * files are at most 1 MB`); `reason` says the same without the name.
 */
export class TextFileError extends TroupeError {
  readonly reason: string;

  private constructor(code: string, name: string, reason: string, data: Record<string, unknown>) {
    super(code, `${name} ${reason}`, { data: { name, ...data } });
    this.reason = reason;
  }

  /** `name` holds binary data. */
  static notText(name: string): TextFileError {
    return new TextFileError(TextFileErrorCode.NotText, name, 'is not a text file', {});
  }

  /** `name` has `bytes` bytes, more than `maxBytes`; `what` names such files (`graph files`). */
  static tooLarge(name: string, bytes: number, maxBytes: number, what: string): TextFileError {
    const size = formatBytes(bytes) === formatBytes(maxBytes) ? `more than ${formatBytes(maxBytes)}` : formatBytes(bytes);
    return new TextFileError(TextFileErrorCode.TooLarge, name, `is ${size}; ${what} are at most ${formatBytes(maxBytes)}`, { bytes, maxBytes });
  }
}

/** `1 MB`, `40 MB`, `1.5 MB`, `12 KB`, `300 bytes`. */
export function formatBytes(bytes: number): string {
  const round = (value: number): string => (value >= 10 ? String(Math.round(value)) : value.toFixed(1).replace(/\.0$/, ''));
  if (bytes >= 1024 * 1024) return `${round(bytes / (1024 * 1024))} MB`;
  if (bytes >= 1024) return `${round(bytes / 1024)} KB`;
  return `${bytes} bytes`;
}

const utf8 = new TextDecoder('utf-8', { fatal: true });

/** The UTF-8 text of `bytes`, or a {@link TextFileError} naming `name` when they are not text (a NUL byte, invalid UTF-8). */
export function decodeText(bytes: Uint8Array, name: string): string {
  if (bytes.includes(0)) throw TextFileError.notText(name);
  try {
    return utf8.decode(bytes);
  } catch {
    throw TextFileError.notText(name);
  }
}

/**
 * Reads a UTF-8 text file of at most `maxBytes` (its size is checked before anything is read),
 * refusing binary data, with a {@link TextFileError}; `what` names such files in the message
 * (`input files are at most 4 MB`). Other failures reject with the Node error (`ENOENT`…).
 */
export async function readCheckedTextFile(path: string, limits: { maxBytes: number; what: string }): Promise<string> {
  const handle = await open(path, 'r');
  try {
    const { size } = await handle.stat();
    if (size > limits.maxBytes) throw TextFileError.tooLarge(path, size, limits.maxBytes, limits.what);
    return decodeText(await handle.readFile(), path);
  } finally {
    await handle.close();
  }
}

/** The default {@link ReadTextFile}: the file system, refusing binary files and files over {@link GRAPH_FILE_MAX_BYTES}. */
export const readTextFileFromDisk: ReadTextFile = (path) => readCheckedTextFile(path, { maxBytes: GRAPH_FILE_MAX_BYTES, what: 'graph files' });

/** A short, human reason for a failed read (`file not found`), from a Node error code when there is one. */
export function describeReadError(error: unknown): string {
  if (error instanceof TextFileError) return `it ${error.reason}`;
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
