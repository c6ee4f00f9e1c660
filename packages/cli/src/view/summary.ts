import type { LimitHit } from '@troupe/core';
import type { RunResult } from '@troupe/runtime';
import { formatCost, plural } from './actor-tree.js';
import { PLAIN, type Style } from './style.js';

/** `the turn limit (5 turns)`, `the time limit (60s)`… */
function limitText(limit: LimitHit | undefined): string {
  switch (limit?.kind) {
    case 'maxTurns':
      return `the turn limit (${plural(limit.limit, 'turn')})`;
    case 'maxTokens':
      return `the token limit (${plural(limit.limit, 'token')})`;
    case 'maxWallTimeMs':
      return `the time limit (${limit.limit / 1000}s)`;
    case 'maxCost':
      return `the cost limit ($${limit.limit})`;
    case undefined:
      return 'a limit';
  }
}

/** `: Gemini stopped the reply: SAFETY`, from the refusing message, when it says why. */
function refusalReason(result: RunResult): string {
  const last = result.agent?.messages.at(-1);
  const why = last?.role === 'assistant' ? last.errorMessage : undefined;
  return why === undefined ? '' : ` (${why})`;
}

/** ` by maxInputLength`: the guardrail that rejected the input, when the result names it. */
function guardrailOf(result: RunResult): string {
  const data = result.error?.data;
  const name = typeof data === 'object' && data !== null ? (data as { guardrail?: unknown }).guardrail : undefined;
  return typeof name === 'string' ? ` by ${name}` : '';
}

/** `: <why>`, from the run's error, when it says why (a rejection's or a hook's reason). */
function reasonOf(result: RunResult): string {
  return result.error === undefined ? '' : `: ${result.error.message}`;
}

/**
 * How the run ended, in words, with its mark: `✓ done`, `■ stopped at the turn limit (5 turns)`,
 * `■ refused by the model`, `■ input rejected by maxInputLength: <why>`.
 */
function outcomeOf(result: RunResult, style: Style): string {
  if (result.status === 'aborted') return style.yellow('■ aborted');
  if (result.status === 'failed') return style.red('✗ failed');
  switch (result.stopReason) {
    case 'complete':
      return style.green('✓ done (task complete)');
    case 'length':
      return style.yellow("✓ done (cut at the model's output limit)");
    case 'limit':
      return style.yellow(`■ stopped at ${limitText(result.agent?.limit)}`);
    case 'refusal':
      return style.yellow(`■ refused by the model${refusalReason(result)}`);
    case 'interrupted':
      return style.yellow('■ stopped: a tool call was denied');
    case 'rejected':
      return style.yellow(`■ input rejected${guardrailOf(result)}${reasonOf(result)}`);
    case 'stopped':
      return style.yellow(`■ stopped by a hook${reasonOf(result)}`);
    default:
      return style.green('✓ done');
  }
}

/**
 * The line that ends a run on standard error, preceded by the failure when there is one:
 * `✓ done · 2 turns · 71 tokens · $0.0033 · 0.04s · run run_…` (`3 actors` when more than the
 * entry ran; turns are the entry's).
 */
export function summaryOf(result: RunResult, elapsedMs: number, options: { actors?: number; style?: Style } = {}): string {
  const style = options.style ?? PLAIN;
  // A rejected input or a hook's stop carries its reason as the error, but the run did not fail.
  const failure = result.error === undefined || result.status !== 'failed' ? '' : `troupe: the run failed: ${result.error.message} [${result.error.code}]\n`;
  const parts = [
    outcomeOf(result, style),
    result.agent === undefined ? '' : plural(result.agent.turns, 'turn'),
    (options.actors ?? 1) > 1 ? plural(options.actors ?? 1, 'actor') : '',
    plural(result.usage.totalTokens, 'token'),
    formatCost(result.usage),
    `${(elapsedMs / 1000).toFixed(2)}s`,
    style.dim(`run ${result.runId}`),
  ];
  return `${failure}${parts.filter((part) => part !== '').join(style.dim(' · '))}`;
}
