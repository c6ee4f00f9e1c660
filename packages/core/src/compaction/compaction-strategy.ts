import type { Message } from '../messages.js';
import type { Provider } from '../provider.js';
import type { Usage } from '../usage.js';

/** Why the context was compacted: it crossed the threshold before a call, or the vendor rejected a call as too long. */
export type CompactionReason = 'threshold' | 'overflow';

/** What a compaction step is given besides the messages. */
export interface CompactionContext {
  /** The run's abort signal: a step that calls a model passes it on. */
  signal: AbortSignal;
  /**
   * The tokens the messages should fit in: the threshold of the context window (or, after an
   * overflow with no known window, half the estimated size), the system prompt and tools taken off.
   */
  targetTokens: number;
  /** The agent's token estimate of messages (about one token per four characters; images by size). */
  estimate(messages: readonly Message[]): number;
  /** The agent's provider and model: a step that summarises uses them unless it was given its own. */
  provider: Provider;
  model: string;
  /** Reports the usage of a model call the step made, so the run counts its tokens and cost. */
  addUsage(usage: Usage): void;
}

/**
 * One step of context compaction: turns the messages the model would be sent into fewer tokens.
 *
 * Contract: returns a new array and never mutates its input. Messages it keeps unchanged are
 * returned as the same objects (the agent records them by their place in the history, so a
 * snapshot stays small); new ones (a summary, a marker, a shortened tool result) are plain
 * messages. Tool-call/result pairs stay intact and the result never starts with a tool result.
 * May be async (a step may call a model); it honours `context.signal`. A throw or rejection is
 * reported as an `error` event and the next step of the cascade runs instead.
 */
export interface CompactionStrategy {
  /** Reported in the `compaction` event (`tool-results`, `summary`, `drop-oldest`). Default `custom`. */
  readonly name?: string;
  compact(messages: readonly Message[], context: CompactionContext): Message[] | Promise<Message[]>;
}

/**
 * How an agent compacts its context (the `compaction` option).
 *
 * With a known `contextWindow`, the context is compacted before a model call whose request is
 * estimated past `threshold` of the window (estimated from the last reply's reported usage plus
 * about a token per four characters of what came since); with or without one, it is compacted
 * after the vendor rejects a request as too long. The steps run in order, each only when the ones
 * before it left the context over the threshold.
 */
export interface CompactionOptions {
  /** Fraction of the context window at which the context is compacted before a call. Default 0.8. */
  threshold?: number;
  /**
   * The cascade. Default: `truncateToolResults()`, `summarizeOlderTurns()` (with the agent's own
   * model), `dropOldestTurns()`. `[]` turns compaction off: an overflow then ends the run in error.
   */
  strategies?: readonly CompactionStrategy[];
}

/** What one compaction did; carried by the `compaction` event and given to `transformContext` hooks. */
export interface CompactionInfo {
  reason: CompactionReason;
  /** The last step that ran (the one that brought the context under the threshold, if any did). */
  strategy: string;
  /** Every step that ran, in order. */
  strategies: string[];
  /** Estimated tokens of the request before and after. */
  tokensBefore: number;
  tokensAfter: number;
  /** Messages of the context before that are not in it after (dropped, summarised or replaced by a shortened copy). */
  removedMessages: number;
  /** Messages of the context before that are in it after, unchanged. */
  keptMessages: number;
  /** New messages in the context after: a summary, a marker, shortened tool results. */
  addedMessages: number;
}

/** The name a step is reported under. */
export function strategyName(strategy: CompactionStrategy): string {
  return strategy.name ?? 'custom';
}
