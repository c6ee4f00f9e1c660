import { chmod, mkdir, rm, symlink } from 'node:fs/promises';
import { createServer, type Server, type Socket } from 'node:net';
import { toErrorInfo, type ErrorInfo } from '@troupe/core';
import type { RunHandle } from '../system/run-handle.js';
import { controlSocketPath, fitsSocketAddress, shortSocketPath } from './control-socket-path.js';
import { MAX_CONTROL_LINE, parseControlRequest, type RunControlActorRequest, type RunControlAnswer, type RunControlEnd } from './run-control-protocol.js';
import { readLines } from './read-lines.js';

/** What the control socket acts on: a run this process runs. */
export type ControlledRun = Pick<RunHandle, 'id' | 'entry' | 'events$' | 'result' | 'abort' | 'abortActor' | 'steer' | 'followUp'>;

/** A listening control socket; see {@link serveRunControl}. */
export interface RunControlServer {
  /** `<runDir>/control.sock`. */
  readonly path: string;
  /** Stops listening and removes the socket (also done once the run ends). Idempotent. */
  close(): Promise<void>;
}

/**
 * Lets other processes on this machine reach a run this process runs (`troupe abort`, `troupe
 * steer`, the dashboard): listens on a Unix domain socket, `control.sock` in the run's directory (readable and
 * writable by its owner only; when that path is too long for a socket address, the socket is in
 * the temporary directory and `control.sock` links to it), and answers newline-delimited JSON
 * `RunControlRequest`s with a {@link RunControlAnswer}; a run abort's answer is followed by a
 * {@link RunControlEnd} once the run has ended. A socket left by a killed process is replaced.
 * The socket is removed when the run ends, or on `close()` (a run left waiting).
 */
export async function serveRunControl(run: ControlledRun, options: { runDir: string }): Promise<RunControlServer> {
  const path = controlSocketPath(options.runDir);
  const bound = fitsSocketAddress(path) ? path : shortSocketPath(path);
  const connections = new Set<Socket>();
  const awaitingEnd = new Set<Socket>();
  const running = new Set<string>();
  const ended = new Set<string>();
  let end: RunControlEnd | undefined;
  const subscription = run.events$.subscribe((event) => {
    if (event.type === 'agent_end') {
      running.delete(event.agentPath);
      ended.add(event.agentPath);
    } else if (event.type === 'agent_start' || !ended.has(event.agentPath)) {
      ended.delete(event.agentPath);
      running.add(event.agentPath);
    }
  });
  const send = (socket: Socket, message: RunControlAnswer | RunControlEnd): void => void socket.write(`${JSON.stringify(message)}\n`);
  const fail = (code: string, message: string): RunControlAnswer => ({ ok: false, error: { code, message } });

  /** A steer, a follow-up or an abort of one actor: the actor must still run. */
  const toActor = async (request: RunControlActorRequest): Promise<RunControlAnswer> => {
    const target = request.path ?? run.entry;
    const others = (): string => (running.size === 0 ? '' : `; running: ${[...running].sort().join(', ')}`);
    if (ended.has(target)) return fail('unknown_actor', `actor ${target} of run ${run.id} has ended${others()}`);
    try {
      if (request.type === 'abortActor') await run.abortActor(target);
      else await (request.type === 'steer' ? run.steer(request.message, target) : run.followUp(request.message, target));
      return { ok: true };
    } catch (error) {
      const info: ErrorInfo = toErrorInfo(error);
      return fail(info.code, `${info.message}${others()}`);
    }
  };
  const answer = async (socket: Socket, line: string): Promise<void> => {
    const parsed = parseControlRequest(line);
    if (typeof parsed === 'string') return send(socket, fail('bad_request', parsed));
    // An abort of the entry is an abort of the run: its answer is followed by how the run ended.
    const request = parsed.type === 'abortActor' && parsed.path === run.entry ? { type: 'abort' as const } : parsed;
    if (end !== undefined) {
      if (request.type !== 'abort') return send(socket, fail('run_finished', `run ${run.id} has ended (${end.ended.status})`));
      send(socket, { ok: true });
      return send(socket, end);
    }
    if (request.type !== 'abort') return send(socket, await toActor(request));
    try {
      await run.abort();
    } catch (error) {
      return send(socket, { ok: false, error: toErrorInfo(error) });
    }
    send(socket, { ok: true });
    if (end === undefined) awaitingEnd.add(socket);
    else send(socket, end);
  };

  const server = createServer((socket) => {
    connections.add(socket);
    socket.on('close', () => {
      connections.delete(socket);
      awaitingEnd.delete(socket);
    });
    socket.on('error', () => socket.destroy());
    readLines(socket, MAX_CONTROL_LINE, (line) => void answer(socket, line).catch(() => socket.destroy()));
  });
  try {
    await bind(server, options.runDir, path, bound);
  } catch (error) {
    subscription.unsubscribe();
    server.close();
    throw error;
  }

  let closing: Promise<void> | undefined;
  const close = (): Promise<void> =>
    (closing ??= (async () => {
      subscription.unsubscribe();
      server.close();
      for (const socket of connections) socket.end(() => socket.destroy());
      await rm(path, { force: true });
      if (bound !== path) await rm(bound, { force: true });
    })());
  const finish = (ending: RunControlEnd): void => {
    end = ending;
    for (const socket of awaitingEnd) {
      send(socket, ending);
      socket.end();
    }
    awaitingEnd.clear();
    void close();
  };
  run.result.then(
    (result) => finish({ ended: { status: result.status, stopReason: result.stopReason, ...(result.error === undefined ? {} : { error: result.error }) } }),
    (error: unknown) => finish({ ended: { status: 'failed', error: toErrorInfo(error) } }),
  );
  return { path, close };
}

/** Listens on `bound` (owner only), linked from `path` when they differ; replaces a socket a killed process left there. */
async function bind(server: Server, runDir: string, path: string, bound: string): Promise<void> {
  await mkdir(runDir, { recursive: true });
  await rm(path, { force: true });
  if (bound !== path) await rm(bound, { force: true });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(bound, () => {
      server.off('error', reject);
      resolve();
    });
  });
  await chmod(bound, 0o600);
  if (bound !== path) await symlink(bound, path);
}
