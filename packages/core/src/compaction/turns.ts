/** Where turns begin in a list of messages, so compaction keeps or removes whole turns. */
import type { Message } from '../messages.js';

/** Index of the first user message, or -1. */
export function firstUserIndex(messages: readonly Message[]): number {
  return messages.findIndex((message) => message.role === 'user');
}

/**
 * Indexes from `from` on where a turn begins: each assistant or user message. A turn runs until
 * the next one, so an assistant message and the tool results answering it (which always follow it
 * directly) are kept or removed together.
 */
export function turnStarts(messages: readonly Message[], from: number): number[] {
  const starts: number[] = [];
  for (let i = from; i < messages.length; i++) {
    const role = messages[i]?.role;
    if (role === 'assistant' || role === 'user') starts.push(i);
  }
  return starts;
}

/**
 * The start of the oldest turn to keep: the newest turns whose estimated tokens fit in `budget`
 * together, the last turn always, and never the first of `starts` (so there is something to
 * remove whenever there are two turns or more).
 */
export function keepNewestTurns(
  messages: readonly Message[],
  starts: readonly number[],
  budget: number,
  estimate: (messages: readonly Message[]) => number,
): number {
  let cut = starts.at(-1) ?? messages.length;
  let kept = estimate(messages.slice(cut));
  for (let t = starts.length - 2; t >= 1; t--) {
    const start = starts[t] as number;
    const size = estimate(messages.slice(start, cut));
    if (kept + size > budget) break;
    kept += size;
    cut = start;
  }
  return cut;
}
