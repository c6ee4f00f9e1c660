import type { AgentEvent } from '@troupe/core';
import type { Logger, PendingAt, RunResult } from '@troupe/runtime';
import type { CliIo, Writer } from '../cli-io.js';
import { jsonRenderer, textRenderer } from '../commands/event-renderer.js';
import { logEvent } from '../commands/log-event.js';
import { formatCost } from './actor-tree.js';
import { lineProgress, liveProgress } from './progress.js';

/** How a run is shown. */
export interface RunViewOptions {
  /** Every event as a JSON line on stdout instead of the entry's text. */
  json?: boolean;
  /** The entry actor's path: only its text goes to stdout. */
  entry: string;
  logger: Logger;
}

/** Shows one run: its events as they arrive, then its end. */
export interface RunView {
  onEvent(event: AgentEvent): void;
  /** Writes to stderr, clearing a live view first. */
  readonly err: Writer;
  /** Clears what a live view drew. */
  clear(): void;
  /** The entry's text (when it did not stream), then the summary line on stderr. */
  end(result: RunResult, elapsedMs: number): void;
}

/**
 * The view `troupe run`, `troupe watch` and `troupe reply` share: the entry agent's text streamed
 * on stdout (or every event as JSON with `json`), the actor tree's progress on stderr (redrawn in
 * place on a terminal, one line per change otherwise), each event logged, and a summary at the end.
 */
export function runView(options: RunViewOptions, io: CliIo): RunView {
  const json = options.json === true;
  const progress = json ? undefined : io.stderrIsTTY === true ? liveProgress(io.stderr) : lineProgress(io.stderr);
  const err = (text: string): void => {
    progress?.clear();
    io.stderr(text);
  };
  const renderer = json ? jsonRenderer(io.stdout) : textRenderer(io.stdout, err);
  return {
    err,
    onEvent(event) {
      if (json || event.agentPath === options.entry || event.type === 'retry') renderer.onEvent(event);
      progress?.onEvent(event);
      logEvent(options.logger, event);
    },
    clear: () => progress?.clear(),
    end(result, elapsedMs) {
      progress?.clear();
      if (!json && result.agent !== undefined) renderer.end(result.agent);
      else if (!json && result.text !== '') io.stdout(`${result.text}\n`);
      io.stderr(`${summaryOf(result, elapsedMs)}\n`);
    },
  };
}

/**
 * What a run left waiting waits for, with the command answering each (`flags` appended: where the
 * run is kept, such as ` --runs-dir dir` or ` --nats url`).
 */
export function waitingLines(runId: string, waiting: readonly PendingAt[], flags: string): string {
  return waiting
    .map(({ path, input }) =>
      input.kind === 'question'
        ? `  ${path} asks: ${input.question}\n    troupe reply ${runId} ${path} "<answer>"${flags}\n`
        : `  ${path} asks to run ${input.toolName} ${JSON.stringify(input.args)}\n    troupe approve ${runId} ${input.callId} allow_once${flags}\n`,
    )
    .join('');
}

/** `run … · done · stop stop · turns 2 · tokens 123 · cost $0.0000 · 0.01s`, plus the failure. */
export function summaryOf(result: RunResult, elapsedMs: number): string {
  const failure = result.error === undefined ? '' : `\ntroupe: ${result.status === 'aborted' ? 'aborted' : `the run failed: ${result.error.message} [${result.error.code}]`}`;
  const turns = result.agent === undefined ? '' : ` · turns ${result.agent.turns}`;
  return `${failure.trimStart()}${failure === '' ? '' : '\n'}run ${result.runId} · ${result.status} · stop ${result.stopReason}${turns} · tokens ${result.usage.totalTokens} · cost ${formatCost(result.usage)} · ${(elapsedMs / 1000).toFixed(2)}s`;
}
