/**
 * Proves the summary line reads naturally for every way a run ends (regression: it said
 * `stop stop` and `1 agents`): `✓ done`, the limit that stopped a run, a refusal with the vendor's
 * reason, a denied call, an input a guardrail rejected or a run a hook stopped (with the reason,
 * on the same line: the run did not fail), an abort, a failure with its message on the line
 * before; counts in the singular or plural.
 */
import { emptyUsage, type AgentResult, type RunId } from '@troupe/core';
import type { RunResult } from '@troupe/runtime';
import { describe, expect, it } from 'vitest';
import { summaryOf } from '../../src/view/summary.js';

const usage = { ...emptyUsage(), totalTokens: 1234 };
function result(fields: Partial<RunResult>, agent: Partial<AgentResult> = {}): RunResult {
  return {
    runId: 'run_1' as RunId,
    status: 'done',
    stopReason: 'stop',
    text: '',
    usage,
    agent: { runId: 'run_1' as RunId, stopReason: 'stop', messages: [], text: '', turns: 1, usage, durationMs: 0, ...agent },
    ...fields,
  };
}

describe('summaryOf', () => {
  it('says how the run ended, with counts in words', () => {
    expect(summaryOf(result({}), 40)).toBe('✓ done · 1 turn · 1,234 tokens · $0.0000 · 0.04s · run run_1');
    expect(summaryOf(result({}, { turns: 2 }), 1500, { actors: 3 })).toBe('✓ done · 2 turns · 3 actors · 1,234 tokens · $0.0000 · 1.50s · run run_1');
    expect(summaryOf(result({ stopReason: 'complete' }), 0)).toMatch(/^✓ done \(task complete\) · /);
  });

  it('names the limit that stopped the run, or the denial', () => {
    expect(summaryOf(result({ stopReason: 'limit' }, { stopReason: 'limit', limit: { kind: 'maxTurns', limit: 5, actual: 5 } }), 0)).toMatch(
      /^■ stopped at the turn limit \(5 turns\) · /,
    );
    expect(summaryOf(result({ stopReason: 'limit' }, { stopReason: 'limit', limit: { kind: 'maxWallTimeMs', limit: 60_000, actual: 60_001 } }), 0)).toMatch(
      /^■ stopped at the time limit \(60s\) · /,
    );
    expect(summaryOf(result({ stopReason: 'interrupted' }), 0)).toMatch(/^■ stopped: a tool call was denied · /);
  });

  it('says the model refused, and why when the refusing reply says', () => {
    const refusal = {
      role: 'assistant' as const,
      content: [],
      stopReason: 'refusal' as const,
      usage,
      model: 'google:gemini',
      timestamp: 0,
      errorMessage: 'Gemini stopped the reply: SAFETY',
    };
    expect(summaryOf(result({ stopReason: 'refusal' }, { stopReason: 'refusal', messages: [refusal] }), 0)).toMatch(
      /^■ refused by the model \(Gemini stopped the reply: SAFETY\) · 1 turn · /,
    );
    expect(summaryOf(result({ stopReason: 'refusal' }, { stopReason: 'refusal' }), 0)).toMatch(/^■ refused by the model · /);
  });

  it('says which guardrail rejected the input and why, and why a hook stopped the run, on one line', () => {
    const rejected = summaryOf(
      result(
        {
          stopReason: 'rejected',
          error: { code: 'input_rejected', message: 'the input is 9 characters long, over the limit of 5', data: { guardrail: 'maxInputLength' } },
        },
        { turns: 0 },
      ),
      0,
    );
    expect(rejected).toBe(
      '■ input rejected by maxInputLength: the input is 9 characters long, over the limit of 5 · 0 turns · 1,234 tokens · $0.0000 · 0.00s · run run_1',
    );
    expect(summaryOf(result({ stopReason: 'stopped', error: { code: 'stopped', message: 'over budget' } }), 0)).toMatch(
      /^■ stopped by a hook: over budget · 1 turn · /,
    );
  });

  it('puts a failure on its own line before the summary, and an abort in a word', () => {
    const failed = summaryOf(result({ status: 'failed', stopReason: 'error', error: { code: 'auth', message: 'invalid api key' } }), 0);
    expect(failed.split('\n')).toEqual(['troupe: the run failed: invalid api key [auth]', '✗ failed · 1 turn · 1,234 tokens · $0.0000 · 0.00s · run run_1']);
    expect(summaryOf(result({ status: 'aborted', stopReason: 'aborted', error: { code: 'aborted', message: 'aborted' } }), 0)).toMatch(
      /^■ aborted · 1 turn · /,
    );
  });
});
