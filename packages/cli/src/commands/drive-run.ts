import type { AgentEvent, PermissionDecision } from '@troupe/core';
import { DEFAULT_RUNS_DIR, type Logger, type PendingAt, type RunHandle } from '@troupe/runtime';
import type { CliIo } from '../cli-io.js';
import { ExitCode, exitCodeOf } from '../exit-code.js';
import { runView, waitingLines } from '../view/run-view.js';

/** How to show and drive a run. */
export interface DriveOptions {
  json?: boolean;
  logger: Logger;
  /**
   * The flags that find the run again (` --runs-dir dir`, ` --nats url`, or nothing for the
   * defaults), appended to the commands printed when it is left waiting or detached.
   */
  resumeFlags: string;
  /**
   * What Ctrl-C does: `abort` the run (default), or `detach` from it, leaving it to go on
   * elsewhere (a distributed run); detaching prints how to follow and cancel it.
   */
  onInterrupt?: 'abort' | 'detach';
  /** Called once the view is subscribed, before anything else: delivers an answer to a resumed run. */
  start?: () => Promise<void>;
}

const DECISIONS: Record<string, PermissionDecision> = { y: 'allow_once', a: 'allow_always', n: 'deny_interrupt', v: 'deny_never' };

/**
 * Shows a run until it ends: the entry agent's text on stdout (or every event as JSON with
 * `json`), the actor tree's progress on stderr, and a summary line. When an actor waits for a
 * user, the person at the terminal is asked (`io.prompt`); without one, the run is left waiting
 * in its store and the exit code says so. Ctrl-C aborts the run, or detaches from it.
 */
export async function driveRun(handle: RunHandle, options: DriveOptions, io: CliIo): Promise<ExitCode> {
  const started = Date.now();
  const view = runView({ entry: handle.entry, logger: options.logger, ...(options.json === true ? { json: true } : {}) }, io);
  let leftWaiting: () => void = () => undefined;
  const waiting = new Promise<'waiting'>((resolve) => (leftWaiting = () => resolve('waiting')));
  let detach: () => void = () => undefined;
  const detached = new Promise<'detached'>((resolve) => (detach = () => resolve('detached')));
  let asking = false;
  const onEvent = (event: AgentEvent): void => {
    view.onEvent(event);
    if (handle.status === 'waiting' && !asking) {
      asking = true;
      // Let the transition that started the wait settle before answering it.
      queueMicrotask(() => void answerAll().finally(() => (asking = false)));
    }
  };
  const answerAll = async (): Promise<void> => {
    const prompt = io.prompt;
    // An event of the answer being taken can arrive before the one that ends the wait: look again.
    if (prompt === undefined) return handle.status === 'waiting' ? leftWaiting() : undefined;
    for (const pending of handle.waiting) {
      view.clear();
      await answer(pending, prompt).catch((error: unknown) => view.err(`troupe: ${error instanceof Error ? error.message : String(error)}\n`));
    }
  };
  const answer = async ({ path, input }: PendingAt, prompt: (q: string) => Promise<string>): Promise<void> => {
    if (input.kind === 'question') {
      await handle.reply(await prompt(`[${path}] ${input.question}\n> `), path);
      return;
    }
    const choice = await prompt(`[${path}] run ${input.toolName} ${JSON.stringify(input.args)}? [y] yes once, [a] always, [n] no and stop, [v] never > `);
    await handle.approve(input.callId, DECISIONS[choice.trim().toLowerCase().charAt(0)] ?? 'deny_interrupt', path);
  };

  const subscription = handle.events$.subscribe(onEvent);
  const interrupt = options.onInterrupt === 'detach' ? detach : (): void => void handle.abort().catch(() => undefined);
  io.signal.addEventListener('abort', interrupt, { once: true });
  try {
    await options.start?.();
    if (handle.status === 'waiting') void answerAll();
    const outcome = await Promise.race([handle.result, waiting, detached]);
    view.clear();
    if (outcome === 'detached') {
      io.stderr(`run ${handle.id} goes on; follow it with: troupe watch ${handle.id}${options.resumeFlags}\ncancel it with: troupe abort ${handle.id}${options.resumeFlags}\n`);
      return ExitCode.Interrupted;
    }
    if (outcome === 'waiting') {
      io.stderr(`troupe: run ${handle.id} is waiting; it is saved and can be answered later:\n${waitingLines(handle.id, handle.waiting, options.resumeFlags)}`);
      return ExitCode.Waiting;
    }
    view.end(outcome, Date.now() - started);
    return outcome.status === 'aborted' ? ExitCode.Interrupted : exitCodeOf(outcome.stopReason);
  } finally {
    io.signal.removeEventListener('abort', interrupt);
    subscription.unsubscribe();
  }
}

/** The `--runs-dir` flag that finds a run recorded in `dir` again; nothing for the default directory. */
export function runsDirFlag(dir: string): string {
  return dir === DEFAULT_RUNS_DIR ? '' : ` --runs-dir ${dir}`;
}
