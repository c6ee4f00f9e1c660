import { TroupeError } from '@troupe/core';
import { GraphErrorCode } from '../runtime-error-codes.js';

/** One problem found in a graph file (or a file it refers to). `line` and `col` are 1-based. */
export interface GraphProblem {
  file: string;
  line: number;
  col: number;
  message: string;
  /** What to do about it, when there is something useful to say. */
  hint?: string;
}

/** Formats one problem as `file:line:col: message (hint)`. */
export function formatGraphProblem(problem: GraphProblem): string {
  const hint = problem.hint === undefined ? '' : ` (${problem.hint})`;
  return `${problem.file}:${problem.line}:${problem.col}: ${problem.message}${hint}`;
}

/** Formats problems one per line, in the order given. */
export function formatGraphProblems(problems: readonly GraphProblem[]): string {
  return problems.map(formatGraphProblem).join('\n');
}

/**
 * Every problem found while loading a graph file, reported at once. `problems` is never empty;
 * `data` carries the same list so it survives `toJSON()`. When the graph file itself could not be
 * read, `cause` is the read's error (a `TextFileError` for a binary or oversized file).
 */
export class GraphFileError extends TroupeError {
  readonly file: string;
  readonly problems: readonly GraphProblem[];

  constructor(file: string, problems: readonly GraphProblem[], options: { cause?: unknown } = {}) {
    const count = problems.length === 1 ? '1 problem' : `${problems.length} problems`;
    super(GraphErrorCode.InvalidGraphFile, `${count} in ${file}:\n${formatGraphProblems(problems)}`, { data: { file, problems }, cause: options.cause });
    this.file = file;
    this.problems = problems;
  }
}
