import type { AgentEvent } from '@troupe/core';
import type { Logger, PendingAt, PipelineStepConfig, RunHandle } from '@troupe/runtime';
import type { CliIo } from '../cli-io.js';
import { ExitCode, exitCodeOf } from '../exit-code.js';
import { KeyFocus } from '../view/key-focus.js';
import { decisionNote, permissionMenu } from '../view/permission-menu.js';
import { runPrompt, type PromptOutcome } from '../view/prompt.js';
import { questionPrompt } from '../view/question-prompt.js';
import { runView, waitingLines, type RunView } from '../view/run-view.js';
import type { Screen } from '../view/screen.js';

/** How to show and drive a run. */
export interface DriveOptions {
  json?: boolean;
  logger: Logger;
  /** A pipeline entry's steps, shown before they run. */
  steps?: readonly PipelineStepConfig[];
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

/**
 * Shows a run until it ends: the entry agent's text on stdout (or every event as JSON with
 * `json`), the actor tree's progress on stderr, and a summary line. When an actor waits for a
 * user and a person is at the terminal, they are asked in the live area (a menu for a permission,
 * a line of text for a question); Esc there, or nobody to ask, leaves the run waiting in its store
 * and the exit code says so. Ctrl-C aborts the run, or detaches from it.
 */
export async function driveRun(handle: RunHandle, options: DriveOptions, io: CliIo): Promise<ExitCode> {
  const started = Date.now();
  const view = runView(
    {
      entry: handle.entry,
      logger: options.logger,
      ...(options.json === true ? { json: true } : {}),
      ...(options.steps === undefined ? {} : { steps: options.steps }),
    },
    io,
  );
  const keys = view.live === undefined ? undefined : io.terminal?.keys;
  const asker = keys === undefined || view.live === undefined ? undefined : createAsker(handle, view, view.live, new KeyFocus(keys), io.signal);
  let leftWaiting: () => void = () => undefined;
  const waiting = new Promise<'waiting'>((resolve) => (leftWaiting = () => resolve('waiting')));
  let detach: () => void = () => undefined;
  const detached = new Promise<'detached'>((resolve) => (detach = () => resolve('detached')));
  let asking = false;
  const answerAll = async (): Promise<void> => {
    if (asking || handle.status !== 'waiting') return;
    asking = true;
    try {
      // Nobody to ask, or the person chose to answer later (Esc): the run stays waiting in its store.
      // (Ctrl-C at a prompt aborts the run, or detaches from it, through the signal.)
      const outcome = asker === undefined ? 'cancel' : await asker.answerAll();
      if (outcome === 'cancel') leftWaiting();
    } catch (error) {
      view.note(`troupe: ${error instanceof Error ? error.message : String(error)}`);
    } finally {
      asking = false;
    }
  };
  const onEvent = (event: AgentEvent): void => {
    view.onEvent(event);
    // Let the transition that started the wait settle before answering it.
    if (handle.status === 'waiting' && !asking) queueMicrotask(() => void answerAll());
  };

  const subscription = handle.events$.subscribe(onEvent);
  const interrupt = options.onInterrupt === 'detach' ? detach : (): void => void handle.abort().catch(() => undefined);
  io.signal.addEventListener('abort', interrupt, { once: true });
  try {
    await options.start?.();
    void answerAll();
    const outcome = await Promise.race([handle.result, waiting, detached]);
    if (outcome === 'detached') {
      view.close();
      io.stderr(
        `run ${handle.id} goes on; follow it with: troupe watch ${handle.id}${options.resumeFlags}\ncancel it with: troupe abort ${handle.id}${options.resumeFlags}\n`,
      );
      return ExitCode.Interrupted;
    }
    if (outcome === 'waiting') {
      view.close();
      io.stderr(`troupe: run ${handle.id} is waiting; it is saved and can be answered later:\n${waitingLines(handle.id, handle.waiting, options.resumeFlags)}`);
      return ExitCode.Waiting;
    }
    view.end(outcome, Date.now() - started);
    return outcome.status === 'aborted' ? ExitCode.Interrupted : exitCodeOf(outcome.stopReason);
  } finally {
    asker?.close();
    view.close();
    io.signal.removeEventListener('abort', interrupt);
    subscription.unsubscribe();
  }
}

/** Asks the person at the terminal what the run's waiting actors wait for, one at a time. */
interface Asker {
  /** Asks until nothing is left to ask; `cancel` when the person pressed Esc, `aborted` on Ctrl-C. */
  answerAll(): Promise<'answered' | 'cancel' | 'aborted'>;
  close(): void;
}

function createAsker(handle: RunHandle, view: RunView, screen: Screen, focus: KeyFocus, signal: AbortSignal): Asker {
  // What was answered already, so an answer the run has not taken yet is not asked again.
  const answered = new Set<string>();
  const ask = async ({ path, input }: PendingAt): Promise<PromptOutcome<unknown>['kind']> => {
    if (input.kind === 'question') {
      const outcome = await runPrompt(
        screen,
        focus,
        signal,
        questionPrompt({ path, question: input.question }, view.style, () => screen.width),
      );
      // The answer shows in the note of the asking tool's result.
      if (outcome.kind === 'answer') await handle.reply(outcome.value, path);
      return outcome.kind;
    }
    const request = { path, toolName: input.toolName, args: input.args };
    const outcome = await runPrompt(screen, focus, signal, permissionMenu(request, view.style));
    if (outcome.kind === 'answer') {
      view.note(decisionNote(outcome.value, request, view.style));
      await handle.approve(input.callId, outcome.value, path);
    }
    return outcome.kind;
  };
  return {
    async answerAll() {
      for (;;) {
        const next = handle.waiting.find((pending) => !answered.has(keyOf(pending)));
        if (next === undefined) return 'answered';
        const outcome = await ask(next);
        if (outcome !== 'answer') return outcome;
        answered.add(keyOf(next));
      }
    },
    close: () => focus.close(),
  };
}

function keyOf({ path, input }: PendingAt): string {
  return `${path} ${input.callId}`;
}
