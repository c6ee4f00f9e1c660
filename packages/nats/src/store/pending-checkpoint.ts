import type { AgentCheckpoint, Message } from '@troupe/core';

/** A checkpoint of one actor not written yet: the latest head, and the messages of the history from `from` on that it adds. */
export type PendingCheckpoint = Omit<AgentCheckpoint, 'mark'>;

/**
 * A copy of `checkpoint` that later checkpoints of the same actor can be merged into (see
 * {@link mergeCheckpoint}); its `added` is its own array, so merging never touches the agent's.
 */
export function pendingCheckpoint(checkpoint: PendingCheckpoint): PendingCheckpoint {
  return { head: checkpoint.head, from: checkpoint.from, added: [...checkpoint.added] };
}

/**
 * Folds `next`, a later checkpoint of the same actor, into `pending`, so that one write stores
 * what both would have: `next`'s head, and the history as `pending` then `next` leave it. `next`
 * usually adds right after `pending`'s messages, or overlaps them (the same turn checkpointed
 * again); one that starts before them (a compaction rewrote the history) replaces them. Returns
 * false, changing nothing, when `next` starts past `pending`'s messages: the messages between are
 * in neither, so the two are written one after the other.
 */
export function mergeCheckpoint(pending: PendingCheckpoint, next: PendingCheckpoint): boolean {
  const end = pending.from + pending.added.length;
  if (next.from > end) return false;
  let added: Message[];
  if (next.from < pending.from) {
    pending.from = next.from;
    added = [...next.added];
  } else {
    added = pending.added.slice(0, next.from - pending.from);
    for (const message of next.added) added.push(message);
  }
  pending.added = added;
  pending.head = next.head;
  return true;
}
