import {
  createAgentFromConfig,
  createLogger,
  formatGraphProblems,
  GraphFileError,
  loadGraphFile,
  UnknownAgentError,
  type GraphConfig,
  type LogLevel,
} from '@troupe/runtime';
import type { CliIo } from '../cli-io.js';
import { ExitCode, exitCodeOf } from '../exit-code.js';
import { jsonRenderer, textRenderer } from './event-renderer.js';
import { logEvent } from './log-event.js';
import { nonInteractiveAnswerer } from './non-interactive.js';
import { formatRunFailure, formatRunSummary } from './run-summary.js';

/** What `troupe run` was asked to do. */
export interface RunCommandOptions {
  /** The graph file. */
  file: string;
  /** The user's message. */
  input: string;
  /** The agent to run instead of the file's `entry`. */
  entry?: string;
  /** Print every event as a JSON line instead of the assistant's text. */
  json?: boolean;
  /** Default `warn`. */
  logLevel?: LogLevel;
}

/**
 * `troupe run`: loads the graph file, runs its entry agent on `input`, streams the output to
 * `io.stdout` and a one-line summary to `io.stderr`, and returns the exit code (see ExitCode).
 * A bad file is reported as `file:line:col: message` lines and nothing runs. `io.signal`
 * aborts the run. Never throws for bad input.
 */
export async function runCommand(options: RunCommandOptions, io: CliIo): Promise<ExitCode> {
  const logger = createLogger({ level: options.logLevel ?? 'warn', destination: { write: io.stderr }, base: { command: 'run' } });
  let graph: GraphConfig;
  try {
    graph = await loadGraphFile(options.file, { env: io.env, ...(options.entry === undefined ? {} : { entry: options.entry }) });
  } catch (error) {
    if (error instanceof GraphFileError) {
      io.stderr(`${formatGraphProblems(error.problems)}\n`);
      return ExitCode.BadInput;
    }
    if (error instanceof UnknownAgentError) {
      io.stderr(`troupe run: ${error.message} (from --entry)\n`);
      return ExitCode.BadInput;
    }
    throw error;
  }
  if (io.signal.aborted) return ExitCode.Interrupted;

  const entry = graph.entry;
  const agent = createAgentFromConfig(graph, entry);
  const renderer = options.json === true ? jsonRenderer(io.stdout) : textRenderer(io.stdout, io.stderr);
  const answer = nonInteractiveAnswerer(agent, io.stderr);
  const subscription = agent.events$.subscribe((event) => {
    renderer.onEvent(event);
    logEvent(logger, event);
    answer(event);
  });
  const abort = (): void => agent.abort();
  io.signal.addEventListener('abort', abort, { once: true });
  logger.info({ file: options.file, agent: entry }, 'run started');
  try {
    const result = await agent.prompt(options.input);
    renderer.end(result);
    logger.info({ stopReason: result.stopReason, turns: result.turns, usage: result.usage }, 'run finished');
    const failure = formatRunFailure(result);
    if (failure !== undefined) io.stderr(`${failure}\n`);
    io.stderr(`${formatRunSummary(result)}\n`);
    return exitCodeOf(result.stopReason);
  } finally {
    io.signal.removeEventListener('abort', abort);
    subscription.unsubscribe();
    agent.dispose();
  }
}
