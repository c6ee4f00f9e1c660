import { createHash } from 'node:crypto';
import { tmpdir } from 'node:os';
import { join, relative, resolve } from 'node:path';

/** Unix socket paths longer than this do not fit `sun_path` on every platform (104 bytes on macOS). */
const MAX_SOCKET_PATH = 100;

/** Where the control socket of the run kept in `runDir` is: `<runDir>/control.sock`. */
export function controlSocketPath(runDir: string): string {
  return resolve(runDir, 'control.sock');
}

/** Whether `path` fits in a socket address. */
export function fitsSocketAddress(path: string): boolean {
  return Buffer.byteLength(path) <= MAX_SOCKET_PATH;
}

/**
 * Where to bind a socket whose name is `path` when `path` is too long for a socket address: a
 * short name in the temporary directory (the run's folder then holds a symbolic link to it).
 */
export function shortSocketPath(path: string): string {
  return join(tmpdir(), `troupe-${createHash('sha256').update(path).digest('hex').slice(0, 16)}.sock`);
}

/** `path` as a client can connect to it: itself, or relative to the working directory when that is short enough. */
export function connectablePath(path: string): string {
  if (fitsSocketAddress(path)) return path;
  const near = relative(process.cwd(), path);
  return fitsSocketAddress(near) ? near : path;
}
