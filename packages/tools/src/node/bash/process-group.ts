import { spawn } from 'node:child_process';
import { HeadTailBuffer } from './output-buffer.js';

/** What {@link runInProcessGroup} runs and how. */
export interface ProcessGroupRun {
  /** The program that leads the group (a shell, or `bwrap` around one) and its arguments. */
  file: string;
  args: readonly string[];
  cwd: string;
  env: NodeJS.ProcessEnv;
  timeoutMs: number;
  /** Per stream. */
  maxOutputBytes: number;
  signal: AbortSignal;
  /** Between SIGTERM and SIGKILL. */
  killGraceMs: number;
  /** Told the group's id once its leader is spawned; what it returns is called when the group is no longer run. */
  track?: (pgid: number) => () => void;
}

/** How a command ended. */
export interface ProcessGroupOutcome {
  exitCode: number | null;
  signal: NodeJS.Signals | null;
  stdout: HeadTailBuffer;
  stderr: HeadTailBuffer;
  timedOut: boolean;
  aborted: boolean;
  /** The shell could not be started (`spawn` failed). */
  spawnError?: Error;
  durationMs: number;
}

/** After the shell exits, how long children that still hold its output pipes are waited for. */
const DRAIN_MS = 250;

/**
 * Runs `file args…` (a shell with `-c command`) as the leader of a new process group. A timeout or `signal` kills the
 * whole group (the command and everything it started): SIGTERM, then SIGKILL after the grace
 * period. When the shell exits by itself, background children still holding its pipes are
 * waited for briefly, then left alone (they were started on purpose with `&`).
 */
export function runInProcessGroup(run: ProcessGroupRun): Promise<ProcessGroupOutcome> {
  const started = Date.now();
  const stdout = new HeadTailBuffer(run.maxOutputBytes);
  const stderr = new HeadTailBuffer(run.maxOutputBytes);
  return new Promise((resolve) => {
    const child = spawn(run.file, run.args, { cwd: run.cwd, env: run.env, detached: true, stdio: ['ignore', 'pipe', 'pipe'] });
    const untrack = child.pid === undefined ? undefined : run.track?.(child.pid);
    let timedOut = false;
    let aborted = false;
    let settled = false;
    let killTimer: NodeJS.Timeout | undefined;
    let drainTimer: NodeJS.Timeout | undefined;
    let exit: { code: number | null; signal: NodeJS.Signals | null } | undefined;

    const killGroup = (signal: NodeJS.Signals): void => {
      if (child.pid === undefined) return;
      try {
        process.kill(-child.pid, signal);
      } catch {
        // The group is already gone.
      }
    };
    const stop = (): void => {
      killGroup('SIGTERM');
      killTimer ??= setTimeout(() => killGroup('SIGKILL'), run.killGraceMs);
    };
    const onAbort = (): void => {
      aborted = true;
      stop();
    };
    const timer = setTimeout(() => {
      timedOut = true;
      stop();
    }, run.timeoutMs);
    const finish = (spawnError?: Error): void => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      clearTimeout(drainTimer);
      // After a kill the SIGKILL still comes, for members of the group that outlive the shell.
      killTimer?.unref();
      run.signal.removeEventListener('abort', onAbort);
      untrack?.();
      child.stdout.destroy();
      child.stderr.destroy();
      const outcome: ProcessGroupOutcome = {
        exitCode: exit?.code ?? null,
        signal: exit?.signal ?? null,
        stdout,
        stderr,
        timedOut,
        aborted,
        durationMs: Date.now() - started,
      };
      if (spawnError !== undefined) outcome.spawnError = spawnError;
      resolve(outcome);
    };

    child.stdout.on('data', (chunk: Buffer) => stdout.push(chunk));
    child.stderr.on('data', (chunk: Buffer) => stderr.push(chunk));
    child.on('error', (error) => finish(error));
    child.on('exit', (code, signal) => {
      exit = { code, signal };
      // Killed on purpose: the SIGKILL timer ends whatever of the group still holds the pipes.
      if (!timedOut && !aborted) drainTimer = setTimeout(() => finish(), DRAIN_MS);
    });
    child.on('close', () => finish());
    if (run.signal.aborted) onAbort();
    else run.signal.addEventListener('abort', onAbort, { once: true });
  });
}
