import type { ProviderFailure } from './provider.js';

/**
 * Decides whether and when a failed model call is tried again.
 *
 * Contract: pure and synchronous; `attempt` is 1 for the first failure of a call. Returning
 * `undefined` means give up. Only model calls are retried, never tools.
 */
export interface RetryStrategy {
  /** Milliseconds to wait before the next attempt, or `undefined` to give up. */
  delayFor(failure: ProviderFailure, attempt: number): number | undefined;
}

/** Options of {@link exponentialBackoff}. */
export interface ExponentialBackoffOptions {
  /** Attempts after the first failure before giving up. Default 5. */
  maxRetries?: number;
  /** Delay before the first retry. Default 1000 ms. */
  baseDelayMs?: number;
  /** Upper bound for any single delay, retry-after included. Default 60 000 ms. */
  maxDelayMs?: number;
  /** Fraction of the delay randomised (0 = none, 0.5 = ±50%). Default 0.2. */
  jitter?: number;
  /** Random source in [0, 1); injected for deterministic tests. */
  random?: () => number;
}

/**
 * Exponential back-off with jitter under a cap. Retries only failures marked `retryable`
 * (rate limits, network errors, 5xx); honours the vendor's retry-after when it is longer.
 */
export function exponentialBackoff(options: ExponentialBackoffOptions = {}): RetryStrategy {
  const maxRetries = options.maxRetries ?? 5;
  const base = options.baseDelayMs ?? 1000;
  const cap = options.maxDelayMs ?? 60_000;
  const jitter = options.jitter ?? 0.2;
  const random = options.random ?? Math.random;
  return {
    delayFor(failure, attempt) {
      if (!failure.retryable || attempt > maxRetries) return undefined;
      const exponential = base * 2 ** (attempt - 1);
      const jittered = exponential * (1 + jitter * (2 * random() - 1));
      const delay = Math.max(jittered, failure.retryAfterMs ?? 0);
      return Math.round(Math.min(delay, cap));
    },
  };
}

/** A strategy that never retries. */
export const noRetry: RetryStrategy = { delayFor: () => undefined };
