import { formatGraphProblems, GraphFileError, loadGraphFile, TextFileError, type GraphConfig, type LoadGraphOptions } from '@troupe/runtime';
import type { CliIo } from '../cli-io.js';

/**
 * Says why a graph file did not load: every problem as `file:line:col: message` on stderr, or —
 * for a file that is not text or is too large — one line, `troupe <command>: image.png is not a
 * text file`, rather than a screen of YAML errors.
 */
export function sayGraphFileError(error: GraphFileError, io: CliIo, command: string): void {
  io.stderr(error.cause instanceof TextFileError ? `troupe ${command}: ${error.cause.message}\n` : `${formatGraphProblems(error.problems)}\n`);
}

/**
 * Loads a graph file for a command, with `io.env` for its `${NAME}`s. A bad file is said on
 * stderr (see {@link sayGraphFileError}) and resolves `undefined` (the command exits 2).
 */
export async function loadGraphOrSay(file: string, io: CliIo, command: string, options: Omit<LoadGraphOptions, 'env'> = {}): Promise<GraphConfig | undefined> {
  try {
    return await loadGraphFile(file, { ...options, env: io.env });
  } catch (error) {
    if (!(error instanceof GraphFileError)) throw error;
    sayGraphFileError(error, io, command);
    return undefined;
  }
}
