/**
 * Proves `GraphFileError` is a `TroupeError` carrying every problem (also in its JSON form) and
 * that problems format as `file:line:col: message (hint)`, one per line.
 */
import { TroupeError } from '@troupe/core';
import { describe, expect, it } from 'vitest';
import { formatGraphProblem, formatGraphProblems, GraphFileError, type GraphProblem } from '../../src/config/graph-file-error.js';
import { GraphErrorCode } from '../../src/runtime-error-codes.js';

const problems: GraphProblem[] = [
  { file: 'g.yaml', line: 3, col: 5, message: 'unknown key "sytem" in agents.a', hint: 'did you mean "system"?' },
  { file: 'g.yaml', line: 7, col: 1, message: 'missing required key "entry" in the top level' },
];

describe('GraphFileError', () => {
  it('formats problems', () => {
    expect(formatGraphProblem(problems[0] as GraphProblem)).toBe('g.yaml:3:5: unknown key "sytem" in agents.a (did you mean "system"?)');
    expect(formatGraphProblems(problems)).toBe(
      'g.yaml:3:5: unknown key "sytem" in agents.a (did you mean "system"?)\ng.yaml:7:1: missing required key "entry" in the top level',
    );
  });

  it('carries the problems and says how many', () => {
    const error = new GraphFileError('g.yaml', problems);
    expect(error).toBeInstanceOf(TroupeError);
    expect(error.name).toBe('GraphFileError');
    expect(error.code).toBe(GraphErrorCode.InvalidGraphFile);
    expect(error.problems).toBe(problems);
    expect(error.message).toBe(`2 problems in g.yaml:\n${formatGraphProblems(problems)}`);
    expect(JSON.parse(JSON.stringify(error))).toEqual({ code: 'invalid_graph_file', message: error.message, data: { file: 'g.yaml', problems } });
  });

  it('says "1 problem" for one', () => {
    expect(new GraphFileError('g.yaml', problems.slice(1)).message).toMatch(/^1 problem in g\.yaml:\n/);
  });
});
