import type { AgentResult } from '@troupe/core';

/**
 * Who waits for an actor's outcome, told once: without a promise of its own. A run waiting (or
 * hibernated) for days keeps its waiter and nothing more for its outcome, where a promise chain
 * kept three promises, their reactions and four closures (about 570 bytes a run).
 */
export interface OutcomeWaiter {
  resolve(result: AgentResult): void;
  reject(error: unknown): void;
}

/** An actor's outcome as a promise that outlives the agent running it (a hibernated one is rebuilt). */
export interface Outcome extends OutcomeWaiter {
  promise: Promise<AgentResult>;
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

/**
 * The waiters of one outcome, told in the order they came; it settles once, and a waiter that
 * comes after is told then too (in a microtask, as a promise's would be).
 */
export class OutcomeWaiters implements OutcomeWaiter {
  #waiters: OutcomeWaiter[];
  #settled: { result: AgentResult } | { error: unknown } | undefined;

  constructor(waiters: OutcomeWaiter[] = []) {
    this.#waiters = waiters;
  }

  /** `waiter` as waiters to add to: itself when it is a list already. */
  static of(waiter: OutcomeWaiter): OutcomeWaiters {
    return waiter instanceof OutcomeWaiters ? waiter : new OutcomeWaiters([waiter]);
  }

  /** `waiter` added to `waiters` (none yet: `waiter` alone, without a list). */
  static join(waiters: OutcomeWaiter | undefined, waiter: OutcomeWaiter): OutcomeWaiter {
    if (waiters === undefined) return waiter;
    const list = OutcomeWaiters.of(waiters);
    list.add(waiter);
    return list;
  }

  add(waiter: OutcomeWaiter): void {
    const settled = this.#settled;
    if (settled === undefined) this.#waiters.push(waiter);
    else queueMicrotask(() => tell(waiter, settled));
  }

  /** The lone waiter when there is one (what a hibernated actor keeps: no list for it), else the list. */
  compact(): OutcomeWaiter {
    const waiters = this.#waiters;
    return this.#settled === undefined && waiters.length === 1 && waiters[0] !== undefined ? waiters[0] : this;
  }

  resolve(result: AgentResult): void {
    this.#settle({ result });
  }

  reject(error: unknown): void {
    this.#settle({ error });
  }

  #settle(settled: { result: AgentResult } | { error: unknown }): void {
    if (this.#settled !== undefined) return;
    this.#settled = settled;
    const waiters = this.#waiters;
    this.#waiters = [];
    for (const waiter of waiters) tell(waiter, settled);
  }
}

/** Tells `waiter` the outcome of `promise` once it settles. */
export function tellWhenSettled(promise: Promise<AgentResult>, waiter: OutcomeWaiter): void {
  promise.then(
    (result) => waiter.resolve(result),
    (error: unknown) => waiter.reject(error),
  );
}

function tell(waiter: OutcomeWaiter, settled: { result: AgentResult } | { error: unknown }): void {
  if ('result' in settled) waiter.resolve(settled.result);
  else waiter.reject(settled.error);
}
