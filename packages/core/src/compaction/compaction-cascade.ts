import { ErrorCode, TroupeError } from '../errors.js';
import type { Message } from '../messages.js';
import { strategyName, type CompactionContext, type CompactionOptions, type CompactionStrategy } from './compaction-strategy.js';
import { dropOldestTurns } from './drop-oldest-turns.js';
import { summarizeOlderTurns } from './summarize-older-turns.js';
import { truncateToolResults } from './truncate-tool-results.js';

/** The compaction settings an agent runs with. */
export interface CompactionSettings {
  threshold: number;
  strategies: readonly CompactionStrategy[];
}

/** The default cascade: shorten old tool results, then summarise older turns, then drop the oldest turns. */
export function defaultCompactionStrategies(): CompactionStrategy[] {
  return [truncateToolResults(), summarizeOlderTurns(), dropOldestTurns()];
}

/** The default cascade agents share (its steps keep no state). */
const DEFAULT_CASCADE: readonly CompactionStrategy[] = Object.freeze(defaultCompactionStrategies());

/**
 * The settings the `compaction` option stands for: a single strategy is a cascade of one;
 * absent, the default threshold and cascade. Throws a {@link TroupeError} (`invalid_option`) for a
 * threshold outside (0, 1].
 */
export function compactionSettings(option: CompactionStrategy | CompactionOptions | undefined): CompactionSettings {
  if (option !== undefined && 'compact' in option) return { threshold: 0.8, strategies: [option] };
  const threshold = option?.threshold ?? 0.8;
  if (!(threshold > 0 && threshold <= 1)) throw new TroupeError(ErrorCode.InvalidOption, `compaction.threshold must be in (0, 1], got ${threshold}`);
  return { threshold, strategies: option?.strategies ?? DEFAULT_CASCADE };
}

/** What a cascade did. */
export interface CascadeOutcome {
  messages: readonly Message[];
  /** The steps that ran and returned, in order. */
  applied: string[];
  /** The steps that threw, with why. */
  failed: { strategy: string; message: string }[];
}

/**
 * Runs the steps in order on `messages`: the first always, each next one only while the estimate
 * is still over `context.targetTokens`. A step that throws is recorded and skipped, unless the
 * run was aborted (then the abort propagates).
 */
export async function runCascade(messages: readonly Message[], strategies: readonly CompactionStrategy[], context: CompactionContext): Promise<CascadeOutcome> {
  const outcome: CascadeOutcome = { messages, applied: [], failed: [] };
  for (const [i, strategy] of strategies.entries()) {
    if (i > 0 && context.estimate(outcome.messages) <= context.targetTokens) break;
    try {
      outcome.messages = await strategy.compact(outcome.messages, context);
      outcome.applied.push(strategyName(strategy));
    } catch (error) {
      if (context.signal.aborted) throw error;
      outcome.failed.push({ strategy: strategyName(strategy), message: error instanceof Error ? error.message : String(error) });
    }
  }
  return outcome;
}
