/**
 * Proves the run summary line has the documented shape (turns, tokens, cost to four decimals or
 * `$?` when unknown, stop reason, seconds) and that each way a run can fail gets a one-line
 * explanation while a finished run gets none.
 */
import { emptyUsage, type AgentResult, type RunId } from '@troupe/core';
import { describe, expect, it } from 'vitest';
import { formatRunFailure, formatRunSummary } from '../../src/commands/run-summary.js';

function result(overrides: Partial<AgentResult> = {}): AgentResult {
  const usage = emptyUsage();
  usage.totalTokens = 123;
  return { runId: 'run_1' as RunId, stopReason: 'stop', messages: [], text: 'hi', turns: 2, usage, durationMs: 12, ...overrides };
}

describe('formatRunSummary', () => {
  it('formats a run', () => {
    expect(formatRunSummary(result())).toBe('turns 2 · tokens 123 · cost $0.0000 · stop stop · 0.01s');
  });

  it('shows an unknown cost as $?', () => {
    const r = result();
    r.usage.cost.unknown = true;
    expect(formatRunSummary(r)).toContain('cost $? ·');
  });

  it('rounds the cost to four decimals', () => {
    const r = result({ durationMs: 1500 });
    r.usage.cost.total = 0.123456;
    expect(formatRunSummary(r)).toBe('turns 2 · tokens 123 · cost $0.1235 · stop stop · 1.50s');
  });
});

describe('formatRunFailure', () => {
  it.each([
    [result(), undefined],
    [result({ stopReason: 'length' }), undefined],
    [result({ stopReason: 'error', error: { code: 'provider_error', message: 'auth: invalid api key' } }), 'troupe: the run failed: auth: invalid api key [provider_error]'],
    [result({ stopReason: 'limit', limit: { kind: 'maxTurns', limit: 3, actual: 3 } }), 'troupe: the run hit its maxTurns limit (3; reached 3)'],
    [result({ stopReason: 'interrupted' }), 'troupe: the run was interrupted by a denied tool call'],
    [result({ stopReason: 'aborted' }), 'troupe: aborted'],
  ])('explains %#', (r, expected) => {
    expect(formatRunFailure(r)).toBe(expected);
  });
});
