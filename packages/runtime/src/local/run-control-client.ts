import { lstat, readlink } from 'node:fs/promises';
import { createConnection, type Socket } from 'node:net';
import { TroupeError } from '@troupe/core';
import { connectablePath, controlSocketPath } from './control-socket-path.js';
import { MAX_CONTROL_LINE, type RunControlAnswer, type RunControlEnd, type RunControlRequest } from './run-control-protocol.js';
import { readLines } from './read-lines.js';
import { RunControlErrorCode } from '../runtime-error-codes.js';

/** A connection to the control socket of the process running a run; see {@link connectRunControl}. */
export interface RunControlConnection {
  /** Sends `request`; resolves with its answer. Rejects when the connection closes first. */
  request(request: RunControlRequest): Promise<RunControlAnswer>;
  /** Resolves with how the run ended once the process says so (after an abort), or `undefined` when the connection closes first. */
  readonly ended: Promise<RunControlEnd['ended'] | undefined>;
  close(): void;
}

/** Errors that mean no process listens on the socket: it is not there, or was left by a process that is gone. */
const NOBODY = new Set(['ENOENT', 'ECONNREFUSED', 'ENOTSOCK', 'ENOTDIR']);

/**
 * Connects to the control socket of the run kept in `runDir` (see `serveRunControl`); resolves
 * `undefined` when no process listens there (the run is not running, or its process was killed).
 * Rejects for other failures (no permission).
 */
export async function connectRunControl(runDir: string): Promise<RunControlConnection | undefined> {
  const path = controlSocketPath(runDir);
  const link = await lstat(path).catch(() => undefined);
  if (link === undefined) return undefined;
  const target = link.isSymbolicLink() ? await readlink(path) : path;
  const socket = await new Promise<Socket | undefined>((resolve, reject) => {
    const connecting = createConnection({ path: connectablePath(target) });
    connecting.once('connect', () => {
      connecting.off('error', onError);
      resolve(connecting);
    });
    const onError = (error: NodeJS.ErrnoException): void => (NOBODY.has(error.code ?? '') ? resolve(undefined) : reject(error));
    connecting.once('error', onError);
  });
  return socket === undefined ? undefined : new Connection(socket);
}

class Connection implements RunControlConnection {
  readonly ended: Promise<RunControlEnd['ended'] | undefined>;
  readonly #socket: Socket;
  readonly #answers: Array<{ resolve(answer: RunControlAnswer): void; reject(error: Error): void }> = [];
  #end!: (ended: RunControlEnd['ended'] | undefined) => void;

  constructor(socket: Socket) {
    this.#socket = socket;
    this.ended = new Promise((resolve) => (this.#end = resolve));
    socket.on('error', () => socket.destroy());
    socket.on('close', () => {
      this.#end(undefined);
      for (const waiter of this.#answers.splice(0))
        waiter.reject(new TroupeError(RunControlErrorCode.Closed, 'the process running the run closed the connection'));
    });
    readLines(socket, MAX_CONTROL_LINE, (line) => this.#receive(line));
  }

  request(request: RunControlRequest): Promise<RunControlAnswer> {
    return new Promise((resolve, reject) => {
      this.#answers.push({ resolve, reject });
      this.#socket.write(`${JSON.stringify(request)}\n`);
    });
  }

  close(): void {
    this.#socket.destroy();
  }

  #receive(line: string): void {
    let message: unknown;
    try {
      message = JSON.parse(line);
    } catch {
      return;
    }
    if (typeof message !== 'object' || message === null) return;
    if ('ended' in message) this.#end((message as RunControlEnd).ended);
    else if ('ok' in message) this.#answers.shift()?.resolve(message as RunControlAnswer);
  }
}
