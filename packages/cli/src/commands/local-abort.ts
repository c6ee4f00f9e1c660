import { connectRunControl, runDirOf, type RunControlConnection, type RunRecord, type RunStore } from '@troupe/runtime';
import type { CliIo } from '../cli-io.js';
import { ExitCode } from '../exit-code.js';
import { isFinal } from '../nats/run-control.js';
import { findLocalRun } from './local-run.js';

/** What `troupe abort` (without `--nats`) was asked to do. */
export interface LocalAbortOptions {
  runId: string;
  /** Abort only this actor (and what it started); the run goes on. Default: the whole run. */
  path?: string;
  runsDir: string;
  /** How long to wait for the run to end once aborted. Default 30 s. */
  timeoutMs?: number;
}

/**
 * `troupe abort <runId>`: aborts a run recorded in the runs directory. When a process runs it, the
 * abort goes to that process over the run's control socket, and the command waits until the run
 * has ended and says how (`run <id> aborted`); a run no process runs — one left waiting for an
 * answer, or interrupted because its process was killed (whose leftover tool processes are ended
 * first) — is marked aborted in the store. A run that has already ended is said so. Exit 0; 1 when
 * the run did not end within the timeout or its process cannot be reached; 2 for an unknown run.
 */
export async function localAbortCommand(options: LocalAbortOptions, io: CliIo): Promise<ExitCode> {
  const found = await findLocalRun(options.runsDir, options.runId, 'abort', io);
  if (found === undefined) return ExitCode.BadInput;
  const { store, run, flags } = found;
  if (isFinal(run)) {
    io.stdout(`run ${run.id} has already ended (${run.status})\n`);
    return ExitCode.Ok;
  }
  const control = await connectRunControl(runDirOf(options.runsDir, run.id));
  if (options.path !== undefined && options.path !== run.entry) return abortActor(run, options.path, control, flags, io);
  if (control === undefined) return markAborted(store, run, io);
  try {
    const answer = await control.request({ type: 'abort' }).catch(() => undefined);
    if (answer !== undefined && !answer.ok) {
      io.stderr(`troupe abort: ${answer.error.message}\n`);
      return ExitCode.RunFailed;
    }
    const timeoutMs = options.timeoutMs ?? 30_000;
    let timer: NodeJS.Timeout | undefined;
    const timedOut = new Promise<'timeout'>((resolve) => (timer = setTimeout(() => resolve('timeout'), timeoutMs)));
    const ended = await Promise.race([control.ended, timedOut]).finally(() => clearTimeout(timer));
    if (ended === 'timeout') {
      io.stderr(
        `troupe abort: run ${run.id} was asked to abort but has not ended after ${Math.round(timeoutMs / 1000)}s (a tool that ignores its abort signal?); troupe show ${run.id}${flags} shows where it stands\n`,
      );
      return ExitCode.RunFailed;
    }
    if (ended !== undefined) return saidEnded(run.id, ended.status, io);
  } finally {
    control.close();
  }
  // The process closed the socket without ending the run: it left it waiting, or died.
  const now = await store.getRun(run.id);
  return now !== undefined && isFinal(now) ? saidEnded(run.id, now.status, io) : markAborted(store, now ?? run, io);
}

/**
 * `troupe abort <runId> <path>`: aborts one actor below the entry, and the actors it started, in
 * the process running the run; its parent takes the abort as its call's result and goes on. Only a
 * running process can do that: a run waiting with no process is refused (exit 2), as is an actor
 * that is not running (the answer lists those that are).
 */
async function abortActor(run: RunRecord, path: string, control: RunControlConnection | undefined, flags: string, io: CliIo): Promise<ExitCode> {
  if (control === undefined) {
    const why =
      run.status === 'waiting'
        ? `is waiting for an answer and no process is running it: troupe abort ${run.id}${flags} aborts all of it`
        : `is not running in a process that answers on its control socket: troupe abort ${run.id}${flags} aborts all of it`;
    io.stderr(`troupe abort: run ${run.id} ${why}\n`);
    return run.status === 'running' ? ExitCode.RunFailed : ExitCode.BadInput;
  }
  try {
    const answer = await control.request({ type: 'abortActor', path });
    if (!answer.ok) {
      io.stderr(`troupe abort: ${answer.error.message}\n`);
      return ExitCode.BadInput;
    }
  } finally {
    control.close();
  }
  io.stdout(`aborted ${path} of run ${run.id}\n`);
  return ExitCode.Ok;
}

function saidEnded(id: string, status: RunRecord['status'], io: CliIo): ExitCode {
  io.stdout(status === 'aborted' ? `run ${id} aborted\n` : `run ${id} ended before the abort reached it: ${status}\n`);
  return ExitCode.Ok;
}

/** A run no process runs: its leftover tool processes ended, then recorded as aborted. */
async function markAborted(store: RunStore, run: RunRecord, io: CliIo): Promise<ExitCode> {
  if (run.status === 'running') {
    io.stderr(
      `troupe abort: run ${run.id} is running in a process that does not answer on its control socket (an older troupe, or a program using the library); stop that process, or abort the run from it\n`,
    );
    return ExitCode.RunFailed;
  }
  const ended = (await store.processes?.reap(run.id)) ?? [];
  await store.updateRun(run.id, { status: 'aborted', stopReason: 'aborted', endedAt: Date.now() });
  const why = run.status === 'waiting' ? 'it was waiting, and no process was running it' : 'its process had been killed';
  const tools = ended.length === 0 ? '' : `; ended the tool processes it left running (process group ${ended.join(', ')})`;
  io.stdout(`run ${run.id} aborted (${why}${tools})\n`);
  return ExitCode.Ok;
}
