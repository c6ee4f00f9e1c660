import { formatGraphProblems, GraphFileError, loadGraphFile, type GraphConfig, type LoadGraphOptions } from '@troupe/runtime';
import type { CliIo } from '../cli-io.js';

/**
 * Loads a graph file for a command, with `io.env` for its `${NAME}`s. A bad file prints every
 * problem as `file:line:col: message` on stderr and resolves `undefined` (the command exits 2).
 */
export async function loadGraphOrSay(file: string, io: CliIo, options: Omit<LoadGraphOptions, 'env'> = {}): Promise<GraphConfig | undefined> {
  try {
    return await loadGraphFile(file, { ...options, env: io.env });
  } catch (error) {
    if (!(error instanceof GraphFileError)) throw error;
    io.stderr(`${formatGraphProblems(error.problems)}\n`);
    return undefined;
  }
}
