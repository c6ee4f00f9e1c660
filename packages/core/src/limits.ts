import type { LimitHit } from './agent-result.js';
import type { Usage } from './usage.js';

/**
 * Per-run limits. A run that reaches one ends cleanly with `stopReason: 'limit'`, its last
 * assistant message a notice saying which (see {@link limitNotice}).
 *
 * `maxTurns` defaults to {@link DEFAULT_MAX_TURNS} even when `limits` is left out: a run is never
 * unbounded unless it says so with `maxTurns: Infinity`. The other limits are off unless set.
 */
export interface Limits {
  /** Model calls per run. Default {@link DEFAULT_MAX_TURNS}; `Infinity` for none. */
  maxTurns?: number;
  /** Input + output tokens per run. */
  maxTokens?: number;
  /** Wall time per run, in milliseconds. */
  maxWallTimeMs?: number;
  /** Dollars per run. */
  maxCost?: number;
}

/** The turn cap of a run that sets none: the hard cap of the agentic flow spec and the task runner. */
export const DEFAULT_MAX_TURNS = 50;

/**
 * The limits a run enforces: `maxTurns` defaulted, and every limit given as `Infinity` left out
 * (so the result is plain JSON, fit for a snapshot).
 */
export function resolveLimits(limits: Limits = {}): Limits {
  const resolved: Limits = {};
  const maxTurns = limits.maxTurns ?? DEFAULT_MAX_TURNS;
  if (Number.isFinite(maxTurns)) resolved.maxTurns = maxTurns;
  if (limits.maxTokens !== undefined && Number.isFinite(limits.maxTokens)) resolved.maxTokens = limits.maxTokens;
  if (limits.maxWallTimeMs !== undefined && Number.isFinite(limits.maxWallTimeMs)) resolved.maxWallTimeMs = limits.maxWallTimeMs;
  if (limits.maxCost !== undefined && Number.isFinite(limits.maxCost)) resolved.maxCost = limits.maxCost;
  return resolved;
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

/** The notice's opening for the turn cap: the agentic flow spec's words. */
export const MAX_ITERATIONS_REACHED = 'Maximum conversation iterations reached';

/**
 * What the run's last assistant message says when `limit` stopped it:
 * `Maximum conversation iterations reached (50 model calls).`,
 * `Maximum tokens reached (10,412 of 10,000 tokens used).`, `Maximum run time reached (60 s).`,
 * `Maximum cost reached ($1.0312 of $1 spent).`
 */
export function limitNotice(limit: LimitHit): string {
  switch (limit.kind) {
    case 'maxTurns':
      return `${MAX_ITERATIONS_REACHED} (${limit.limit} model ${limit.limit === 1 ? 'call' : 'calls'}).`;
    case 'maxTokens':
      return `Maximum tokens reached (${count(limit.actual)} of ${count(limit.limit)} tokens used).`;
    case 'maxWallTimeMs':
      return `Maximum run time reached (${seconds(limit.limit)} s).`;
    case 'maxCost':
      return `Maximum cost reached ($${round(limit.actual, 4)} of $${round(limit.limit, 4)} spent).`;
  }
}

function count(n: number): string {
  return n.toLocaleString('en-US');
}

function seconds(ms: number): string {
  return String(round(ms / 1000, 3));
}

function round(n: number, digits: number): number {
  const scale = 10 ** digits;
  return Math.round(n * scale) / scale;
}
