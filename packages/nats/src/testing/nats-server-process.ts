import { spawn, type ChildProcess } from 'node:child_process';
import { constants, rmSync } from 'node:fs';
import { access, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { delimiter, join } from 'node:path';
import { TroupeError } from '@troupe/core';
import { NatsErrorCode } from '../nats-error-code.js';

/** Options of {@link startNatsServer}. */
export interface NatsServerOptions {
  /** JetStream's store directory. Default: a fresh temporary directory. */
  storeDir?: string;
  /** The loopback port to listen on. Default: a free one the server picks (`-p -1`), kept across restarts. */
  port?: number;
  /** The `nats-server` binary. Default: `nats-server` from the PATH or `/usr/sbin` (where Debian puts it). */
  binary?: string;
  /** A user and password every client must give (`--user`, `--pass`). Default: none. */
  auth?: { user: string; password: string };
}

/** A `nats-server` child process with JetStream on, listening on 127.0.0.1. */
export interface NatsServerProcess {
  /** `nats://127.0.0.1:<port>`. */
  readonly url: string;
  readonly port: number;
  readonly storeDir: string;
  /** Its process id (a new one after {@link restart}); benchmarks read its CPU time by it. */
  readonly pid: number | undefined;
  /**
   * Stops it gracefully (SIGTERM) and resolves once it has exited. Deletes the store directory
   * when {@link startNatsServer} created it, unless `keepStore` (to `restart()` it later with its
   * data, as after an outage).
   */
  stop(options?: { keepStore?: boolean }): Promise<void>;
  /** Kills it (SIGKILL), like a crash, and resolves once it has exited. */
  kill(): Promise<void>;
  /** Starts it again (stopping it gracefully first if it runs) on the same port and store directory. */
  restart(): Promise<void>;
}

const READY_TIMEOUT_MS = 10_000;
const LOG_LINES = 30;

/**
 * Starts a local `nats-server -js` on a loopback port, for tests, CLI tests and benchmarks, and
 * resolves once it logs "Server is ready". Rejects with `nats_server_failed` and the end of its
 * log when it exits early or is not ready within 10 s, and says how to install it when the binary
 * is missing.
 */
export async function startNatsServer(options: NatsServerOptions = {}): Promise<NatsServerProcess> {
  const binary = options.binary ?? (await findBinary());
  const storeDir = options.storeDir ?? (await mkdtemp(join(tmpdir(), 'troupe-nats-')));
  let started: Started;
  try {
    started = await launch(binary, options.port ?? -1, storeDir, options.auth);
  } catch (error) {
    if (options.storeDir === undefined) await rm(storeDir, { recursive: true, force: true });
    throw error;
  }
  let child = started.child;
  const port = started.port;
  const onExit = (): void => {
    child.kill('SIGKILL');
    if (options.storeDir === undefined) rmSync(storeDir, { recursive: true, force: true });
  };
  killedAtExit(onExit);
  const stopWith = async (signal: NodeJS.Signals): Promise<void> => {
    if (child.exitCode !== null || child.signalCode !== null) return;
    const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
    child.kill(signal);
    await exited;
  };
  return {
    url: `nats://127.0.0.1:${port}`,
    port,
    storeDir,
    get pid() {
      return child.pid;
    },
    stop: async ({ keepStore = false } = {}) => {
      await stopWith('SIGTERM');
      atExit.delete(onExit);
      if (options.storeDir === undefined && !keepStore) await rm(storeDir, { recursive: true, force: true });
    },
    kill: () => stopWith('SIGKILL'),
    restart: async () => {
      await stopWith('SIGTERM');
      child = (await launch(binary, port, storeDir, options.auth)).child;
      killedAtExit(onExit);
    },
  };
}

/** What kills each running server, and removes the store it made, if this process exits before stopping it. */
const atExit = new Set<() => void>();
let exitHooked = false;

/**
 * Kills a server with this process: a test or benchmark that dies of an error (an uncaught one,
 * or `EPIPE` when its output is piped to `head`) leaves no `nats-server` and no store behind.
 */
function killedAtExit(kill: () => void): void {
  atExit.add(kill);
  if (exitHooked) return;
  exitHooked = true;
  process.once('exit', () => {
    for (const each of atExit) each();
  });
}

interface Started {
  child: ChildProcess;
  port: number;
}

function launch(binary: string, port: number, storeDir: string, auth: NatsServerOptions['auth']): Promise<Started> {
  const args = ['-js', '-a', '127.0.0.1', '-p', String(port), '-sd', storeDir];
  if (auth !== undefined) args.push('--user', auth.user, '--pass', auth.password);
  return waitReady(spawn(binary, args, { stdio: ['ignore', 'ignore', 'pipe'] }), binary);
}

async function findBinary(): Promise<string> {
  for (const dir of [...(process.env['PATH'] ?? '').split(delimiter), '/usr/sbin', '/usr/local/sbin']) {
    const candidate = join(dir, 'nats-server');
    if (
      dir.length > 0 &&
      (await access(candidate, constants.X_OK).then(
        () => true,
        () => false,
      ))
    )
      return candidate;
  }
  throw notInstalled('nats-server');
}

function notInstalled(binary: string): TroupeError {
  return new TroupeError(NatsErrorCode.ServerFailed, `${binary} is not installed: install it with apt-get install -y nats-server`);
}

function waitReady(child: ChildProcess, binary: string): Promise<Started> {
  return new Promise((resolve, reject) => {
    const log: string[] = [];
    let port = 0;
    let settled = false;
    const tail = (): string => log.slice(-LOG_LINES).join('\n');
    const fail = (error: TroupeError): void => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      child.kill('SIGKILL');
      reject(error);
    };
    const failed = (message: string): TroupeError => new TroupeError(NatsErrorCode.ServerFailed, message, { data: { log: tail() } });
    const timer = setTimeout(() => fail(failed(`nats-server was not ready within ${READY_TIMEOUT_MS / 1000} s:\n${tail()}`)), READY_TIMEOUT_MS);
    child.stderr?.setEncoding('utf8');
    let partial = '';
    child.stderr?.on('data', (chunk: string) => {
      // Keep reading after ready: a full stderr pipe would block the server.
      const lines = (partial + chunk).split('\n');
      partial = lines.pop() ?? '';
      for (const line of lines) {
        log.push(line);
        port ||= Number(/Listening for client connections on \S*:(\d+)/.exec(line)?.[1] ?? 0);
        if (settled || !line.includes('Server is ready')) continue;
        if (port === 0) return fail(failed(`nats-server did not say which port it listens on:\n${tail()}`));
        settled = true;
        clearTimeout(timer);
        resolve({ child, port });
      }
      if (log.length > LOG_LINES) log.splice(0, log.length - LOG_LINES);
    });
    child.once('error', (error: NodeJS.ErrnoException) => {
      fail(error.code === 'ENOENT' ? notInstalled(binary) : failed(`cannot start ${binary}: ${error.message}`));
    });
    child.once('exit', (code, signal) => fail(failed(`nats-server exited (${signal ?? `code ${code}`}) before it was ready:\n${tail()}`)));
  });
}
