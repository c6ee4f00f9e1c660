import type { AgentResult } from '@troupe/core';

/**
 * The one-line summary of a run: `turns 2 · tokens 123 · cost $0.0000 · stop stop · 0.01s`.
 * The cost reads `$?` when some model had no price.
 */
export function formatRunSummary(result: AgentResult): string {
  const cost = result.usage.cost.unknown === true ? '$?' : `$${result.usage.cost.total.toFixed(4)}`;
  const seconds = (result.durationMs / 1000).toFixed(2);
  return `turns ${result.turns} · tokens ${result.usage.totalTokens} · cost ${cost} · stop ${result.stopReason} · ${seconds}s`;
}

/** Why a run did not finish, as a line for standard error, or `undefined` when it finished. */
export function formatRunFailure(result: AgentResult): string | undefined {
  switch (result.stopReason) {
    case 'error':
      return `troupe: the run failed: ${result.error?.message ?? 'unknown error'}${result.error === undefined ? '' : ` [${result.error.code}]`}`;
    case 'limit':
      return result.limit === undefined
        ? 'troupe: the run hit a limit'
        : `troupe: the run hit its ${result.limit.kind} limit (${result.limit.limit}; reached ${result.limit.actual})`;
    case 'interrupted':
      return 'troupe: the run was interrupted by a denied tool call';
    case 'aborted':
      return 'troupe: aborted';
    default:
      return undefined;
  }
}
