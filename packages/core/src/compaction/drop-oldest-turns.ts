import { userMessage, type Message } from '../messages.js';
import type { CompactionStrategy } from './compaction-strategy.js';
import { firstUserIndex, keepNewestTurns, turnStarts } from './turns.js';

/** The marker that stands where turns were dropped. */
export const DROPPED_TURNS_MARKER = '[Earlier messages of this conversation were removed to fit the context window.]';

/** Options of {@link dropOldestTurns}. */
export interface DropOldestTurnsOptions {
  /**
   * How much of the target the kept messages may fill. Dropping below the target leaves room for
   * the turns to come, so the context is not compacted again at the next call. Default 0.75.
   */
  fill?: number;
}

/**
 * The last step of the default cascade (`drop-oldest`): keeps the first user message (the task),
 * puts {@link DROPPED_TURNS_MARKER} after it, and drops the oldest turns after it until the rest
 * fits in `fill` of the target; the last turn is always kept. A "turn" starts at an assistant or a
 * user message and runs until the next one, so an assistant message and the tool results
 * answering it are always dropped or kept together. Needs no model.
 */
export function dropOldestTurns(options: DropOldestTurnsOptions = {}): CompactionStrategy {
  const fill = options.fill ?? 0.75;
  return {
    name: 'drop-oldest',
    compact(messages, { targetTokens, estimate }) {
      const first = firstUserIndex(messages);
      const starts = turnStarts(messages, first + 1);
      if (first < 0 || starts.length < 2) return [...messages];
      const head = messages.slice(0, first + 1);
      const marker = userMessage(DROPPED_TURNS_MARKER, (messages[first] as Message).timestamp);
      const cut = keepNewestTurns(messages, starts, targetTokens * fill - estimate([...head, marker]), estimate);
      return [...head, marker, ...messages.slice(cut)];
    },
  };
}
