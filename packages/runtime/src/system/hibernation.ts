import type { AgentResult } from '@troupe/core';

/**
 * When an actor waiting for a user (an answer or an approval) is hibernated: checkpointed to the
 * store and dropped from memory, to be restored from its checkpoint, transparently, by the next
 * control command for its path (a reply, an approval, an abort…). Waiting for its outcome does
 * not wake it.
 */
export interface HibernationPolicy {
  /** How long it waits before it is hibernated; 0: as soon as its checkpoint is stored. */
  afterMs: number;
}

/** An actor's outcome as a promise that outlives the agent running it (a hibernated one is rebuilt). */
export interface Outcome {
  promise: Promise<AgentResult>;
  resolve(result: AgentResult): void;
  reject(error: unknown): void;
}

/** An {@link Outcome} to settle later. */
export function newOutcome(): Outcome {
  let resolve!: (result: AgentResult) => void;
  let reject!: (error: unknown) => void;
  const promise = new Promise<AgentResult>((res, rej) => {
    resolve = res;
    reject = rej;
  });
  return { promise, resolve, reject };
}
