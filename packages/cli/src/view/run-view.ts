import type { AgentEvent } from '@troupe/core';
import type { Logger, PendingAt, PipelineStepConfig, RunResult } from '@troupe/runtime';
import type { CliIo } from '../cli-io.js';
import { jsonRenderer, textRenderer, type EventRenderer } from '../commands/event-renderer.js';
import { logEvent } from '../commands/log-event.js';
import { plainScreen } from './plain-screen.js';
import { lineProgress, liveProgress, type ProgressView } from './progress.js';
import type { Screen } from './screen.js';
import { styleFor, type Style } from './style.js';
import { summaryOf } from './summary.js';
import { terminalScreen } from './terminal-screen.js';

/** How a run is shown. */
export interface RunViewOptions {
  /** Every event as a JSON line on stdout instead of the entry's text. */
  json?: boolean;
  /** The entry actor's path: only its text goes to stdout. */
  entry: string;
  /** A pipeline entry's steps, shown before they run. */
  steps?: readonly PipelineStepConfig[];
  logger: Logger;
}

/** Shows one run: its events as they arrive, then its end. */
export interface RunView {
  onEvent(event: AgentEvent): void;
  /** Text for standard error that stays (one or more lines), written above a live area. */
  note(text: string): void;
  /** The screen, when it has a live area a prompt can be drawn in. */
  readonly live: Screen | undefined;
  readonly style: Style;
  /** Removes the live area and ends the output's line (the run is left, or waits). Idempotent. */
  close(): void;
  /** Closes the view, writes the entry's text if it did not stream, then the summary line. */
  end(result: RunResult, elapsedMs: number): void;
}

/**
 * The view `troupe run`, `watch`, `resume`, `reply` and `approve` share: the entry agent's text
 * on stdout (or every event as JSON with `json`), the actors' progress on stderr, each event
 * logged, and a summary at the end. On a terminal the progress is a live tree below the answer
 * (see {@link terminalScreen}); elsewhere it is one line per change (see {@link plainScreen}).
 */
export function runView(options: RunViewOptions, io: CliIo): RunView {
  const json = options.json === true;
  const terminal = json ? undefined : io.terminal;
  const style = styleFor(terminal !== undefined, io.env);
  const screen: Screen =
    terminal === undefined
      ? plainScreen(io.stdout, io.stderr, { streamOutput: io.stdoutIsTTY === true })
      : terminalScreen(io.stdout, terminal.stream, { outIsTerminal: io.stdoutIsTTY === true });
  const note = (text: string): void => {
    for (const line of text.replace(/\n$/, '').split('\n')) screen.note(line);
  };
  const progressOptions = { entry: options.entry, style, ...(options.steps === undefined ? {} : { steps: options.steps }) };
  const progress: ProgressView | undefined = json
    ? undefined
    : terminal === undefined
      ? lineProgress(screen, progressOptions)
      : liveProgress(screen, progressOptions);
  const renderer: EventRenderer = json ? jsonRenderer(io.stdout) : textRenderer((text) => screen.write(text), note);
  // Log lines, wrapped rather than cut: their fields are the point.
  const logAbove = (text: string): void => {
    for (const line of text.replace(/\n$/, '').split('\n')) screen.note(line, { wrap: true });
  };
  if (terminal !== undefined) terminal.above = logAbove;
  const close = (): void => {
    progress?.stop();
    screen.close();
    if (terminal !== undefined && terminal.above === logAbove) terminal.above = undefined;
  };
  return {
    note,
    live: screen.live ? screen : undefined,
    style,
    onEvent(event) {
      if (json || event.agentPath === options.entry || event.type === 'retry') renderer.onEvent(event);
      progress?.onEvent(event);
      logEvent(options.logger, event);
    },
    close,
    end(result, elapsedMs) {
      if (!json && result.agent !== undefined) renderer.end(result.agent);
      else if (!json && result.text !== '') screen.write(`${result.text}\n`);
      close();
      const actors = progress?.tree.rows.filter((row) => row.kind === 'actor').length;
      io.stderr(`${summaryOf(result, elapsedMs, { style, ...(actors === undefined ? {} : { actors }) })}\n`);
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
