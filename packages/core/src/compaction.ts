import type { Message } from './messages.js';

/**
 * Shrinks a history that no longer fits the model's context window.
 *
 * Contract: returns a new array (never mutates its input) that keeps tool-call/result pairs
 * intact, so the provider never sees a result without its call. May be async (a strategy may
 * summarise with a model); it receives the abort signal of the run.
 */
export interface CompactionStrategy {
  compact(messages: readonly Message[], options: { signal: AbortSignal }): Message[] | Promise<Message[]>;
}

/** Options of {@link dropOldestTurns}. */
export interface DropOldestTurnsOptions {
  /** Fraction of the turns after the first user message to drop. Default 0.5. */
  dropFraction?: number;
}

/**
 * The default compaction: keeps the first user message, drops the oldest half of the turns that
 * follow it, and keeps the rest. A "turn" starts at an assistant message or a user message and
 * runs until the next one, so an assistant message and the tool results answering it are
 * always dropped or kept together.
 */
export function dropOldestTurns(options: DropOldestTurnsOptions = {}): CompactionStrategy {
  const fraction = options.dropFraction ?? 0.5;
  return {
    compact(messages) {
      const firstUser = messages.findIndex((m) => m.role === 'user');
      if (firstUser < 0) return [...messages];
      const starts: number[] = [];
      for (let i = firstUser + 1; i < messages.length; i++) {
        const role = messages[i]?.role;
        if (role === 'assistant' || role === 'user') starts.push(i);
      }
      // Always keep the last turn: it is what the model must answer.
      const droppable = starts.length - 1;
      const drop = Math.min(droppable, Math.max(1, Math.ceil(droppable * fraction)));
      if (drop <= 0) return [...messages];
      const cut = starts[drop] ?? messages.length;
      return [...messages.slice(0, firstUser + 1), ...messages.slice(cut)];
    },
  };
}
