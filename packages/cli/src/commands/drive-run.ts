import type { AgentEvent, PermissionDecision } from '@troupe/core';
import type { Logger, PendingAt, RunHandle, RunResult } from '@troupe/runtime';
import type { CliIo } from '../cli-io.js';
import { ExitCode, exitCodeOf } from '../exit-code.js';
import { formatCost } from '../view/actor-tree.js';
import { lineProgress, liveProgress } from '../view/progress.js';
import { jsonRenderer, textRenderer } from './event-renderer.js';
import { logEvent } from './log-event.js';

/** How to show and drive a run. */
export interface DriveOptions {
  json?: boolean;
  logger: Logger;
  /** Where the run is recorded, for the instructions printed when it is left waiting. */
  runsDir: string;
  /** Called once the view is subscribed, before anything else: delivers an answer to a resumed run. */
  start?: () => Promise<void>;
}

const DECISIONS: Record<string, PermissionDecision> = { y: 'allow_once', a: 'allow_always', n: 'deny_interrupt', v: 'deny_never' };

/**
 * Shows a run until it ends: the entry agent's text on stdout (or every event as JSON with
 * `json`), the actor tree's progress on stderr, and a summary line. When an actor waits for a
 * user, the person at the terminal is asked (`io.prompt`); without one, the run is left waiting
 * in its store and the exit code says so. Ctrl-C aborts the run.
 */
export async function driveRun(handle: RunHandle, options: DriveOptions, io: CliIo): Promise<ExitCode> {
  const started = Date.now();
  const progress = options.json === true ? undefined : io.stderrIsTTY === true ? liveProgress(io.stderr) : lineProgress(io.stderr);
  const err = (text: string): void => {
    progress?.clear();
    io.stderr(text);
  };
  const renderer = options.json === true ? jsonRenderer(io.stdout) : textRenderer(io.stdout, err);
  let leftWaiting: () => void = () => undefined;
  const waiting = new Promise<'waiting'>((resolve) => (leftWaiting = () => resolve('waiting')));
  let asking = false;
  const onEvent = (event: AgentEvent): void => {
    if (options.json === true || event.agentPath === handle.entry || event.type === 'retry') renderer.onEvent(event);
    progress?.onEvent(event);
    logEvent(options.logger, event);
    if (handle.status === 'waiting' && !asking) {
      asking = true;
      // Let the transition that started the wait settle before answering it.
      queueMicrotask(() => void answerAll().finally(() => (asking = false)));
    }
  };
  const answerAll = async (): Promise<void> => {
    const prompt = io.prompt;
    if (prompt === undefined) return leftWaiting();
    for (const pending of handle.waiting) {
      progress?.clear();
      await answer(pending, prompt).catch((error: unknown) => err(`troupe: ${error instanceof Error ? error.message : String(error)}\n`));
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
  const abort = (): void => void handle.abort().catch(() => undefined);
  io.signal.addEventListener('abort', abort, { once: true });
  try {
    await options.start?.();
    if (handle.status === 'waiting') void answerAll();
    const outcome = await Promise.race([handle.result, waiting]);
    progress?.clear();
    if (outcome === 'waiting') {
      const lines = handle.waiting.map(({ path, input }) =>
        input.kind === 'question'
          ? `  ${path} asks: ${input.question}\n    troupe reply ${handle.id} ${path} "<answer>"${runsDirFlag(options.runsDir)}\n`
          : `  ${path} asks to run ${input.toolName} ${JSON.stringify(input.args)}\n    troupe approve ${handle.id} ${input.callId} allow_once${runsDirFlag(options.runsDir)}\n`,
      );
      io.stderr(`troupe: run ${handle.id} is waiting; it is saved and can be answered later:\n${lines.join('')}`);
      return ExitCode.Waiting;
    }
    if (options.json !== true && outcome.agent !== undefined) renderer.end(outcome.agent);
    else if (options.json !== true && outcome.text !== '') io.stdout(`${outcome.text}\n`);
    io.stderr(`${summaryOf(outcome, Date.now() - started)}\n`);
    return outcome.status === 'aborted' ? ExitCode.Interrupted : exitCodeOf(outcome.stopReason);
  } finally {
    io.signal.removeEventListener('abort', abort);
    subscription.unsubscribe();
  }
}

function runsDirFlag(dir: string): string {
  return dir === '.troupe/runs' ? '' : ` --runs-dir ${dir}`;
}

/** `run … · done · stop stop · turns 2 · tokens 123 · cost $0.0000 · 0.01s`, plus the failure. */
export function summaryOf(result: RunResult, elapsedMs: number): string {
  const failure = result.error === undefined ? '' : `\ntroupe: ${result.status === 'aborted' ? 'aborted' : `the run failed: ${result.error.message} [${result.error.code}]`}`;
  const turns = result.agent === undefined ? '' : ` · turns ${result.agent.turns}`;
  return `${failure.trimStart()}${failure === '' ? '' : '\n'}run ${result.runId} · ${result.status} · stop ${result.stopReason}${turns} · tokens ${result.usage.totalTokens} · cost ${formatCost(result.usage)} · ${(elapsedMs / 1000).toFixed(2)}s`;
}
