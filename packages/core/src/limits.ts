import type { LimitHit } from './agent-result.js';
import type { Usage } from './usage.js';

/** Per-run limits. A run that reaches one ends cleanly with `stopReason: 'limit'`. */
export interface Limits {
  /** Model turns per run. */
  maxTurns?: number;
  /** Input + output tokens per run. */
  maxTokens?: number;
  /** Wall time per run, in milliseconds. */
  maxWallTimeMs?: number;
  /** Dollars per run. */
  maxCost?: number;
}

/** The first limit that the run's counters have reached, checked before starting another turn. */
export function limitReached(limits: Limits, turns: number, usage: Usage, elapsedMs: number): LimitHit | undefined {
  if (limits.maxTurns !== undefined && turns >= limits.maxTurns) return { kind: 'maxTurns', limit: limits.maxTurns, actual: turns };
  if (limits.maxTokens !== undefined && usage.totalTokens >= limits.maxTokens) {
    return { kind: 'maxTokens', limit: limits.maxTokens, actual: usage.totalTokens };
  }
  if (limits.maxCost !== undefined && usage.cost.total >= limits.maxCost) return { kind: 'maxCost', limit: limits.maxCost, actual: usage.cost.total };
  if (limits.maxWallTimeMs !== undefined && elapsedMs >= limits.maxWallTimeMs) {
    return { kind: 'maxWallTimeMs', limit: limits.maxWallTimeMs, actual: elapsedMs };
  }
  return undefined;
}
