import type { AgentResult } from '@troupe/core';
import { newOutcome, type Outcome } from './hibernation.js';
import { PathMap } from './path-map.js';
import type { SpawnRequest, Transport } from './transport.js';

/**
 * A hibernated actor: what restores it (its spawn request, without the snapshot it was built
 * from, and the transport its tools reach others through), who waits for its outcome, and its
 * restoration once something asked for it. Many of these may sleep for days: the parts of its
 * outcome are fields of its own (one object where there were two), and its request is the one it
 * was spawned with unless that carried a snapshot (a copy of it then, without the stale snapshot).
 */
export class DormantActor {
  readonly request: SpawnRequest;
  readonly transport: Transport;
  /** Its outcome as a promise, once asked for. */
  #promise: Promise<AgentResult> | undefined;
  #resolve: Outcome['resolve'] | undefined;
  #reject: Outcome['reject'] | undefined;
  /** Its restoration, once something asked for it. */
  waking: Promise<void> | undefined = undefined;

  constructor(request: SpawnRequest, transport: Transport, outcome: Outcome | undefined) {
    if (request.snapshot === undefined) this.request = request;
    else {
      // The snapshot it was built from is stale now: the store's checkpoint is the truth.
      const { snapshot: _stale, ...rest } = request;
      this.request = rest;
    }
    this.transport = transport;
    this.#promise = outcome?.promise;
    this.#resolve = outcome?.resolve;
    this.#reject = outcome?.reject;
  }

  /** The outcome of its run: the same promise as before it slept, made now when none was asked for. */
  result(): Promise<AgentResult> {
    if (this.#promise === undefined) {
      const { promise, resolve, reject } = newOutcome();
      this.#promise = promise;
      this.#resolve = resolve;
      this.#reject = reject;
    }
    return this.#promise;
  }

  /** Its outcome, for the actor woken in its place to settle; undefined when nobody asked for it. */
  outcome(): Outcome | undefined {
    const promise = this.#promise;
    const resolve = this.#resolve;
    const reject = this.#reject;
    return promise === undefined || resolve === undefined || reject === undefined ? undefined : { promise, resolve, reject };
  }
}

/**
 * The hibernated actors of a host, by run and path. A run's lone sleeping actor is kept as it is,
 * without a map of its own (most runs have one, and there may be many thousands of them).
 */
export class DormantActors {
  readonly #runs = new Map<string, DormantActor | PathMap<DormantActor>>();

  /** The hibernated actor at `path` of run `runId`, if any. */
  get(runId: string, path: string): DormantActor | undefined {
    const found = this.#runs.get(runId);
    if (found instanceof PathMap) return found.get(path);
    return found?.request.path === path ? found : undefined;
  }

  /** Keeps `dormant` (it replaces any other at its path). */
  add(dormant: DormantActor): void {
    const { runId, path } = dormant.request;
    const found = this.#runs.get(runId);
    if (found === undefined || (!(found instanceof PathMap) && found.request.path === path)) this.#runs.set(runId, dormant);
    else if (found instanceof PathMap) found.set(path, dormant);
    else this.#runs.set(runId, new PathMap<DormantActor>().set(found.request.path, found).set(path, dormant));
  }

  /** Forgets the hibernated actor at `path` of run `runId`. */
  delete(runId: string, path: string): void {
    const found = this.#runs.get(runId);
    if (found instanceof PathMap) {
      found.delete(path);
      if (found.size === 0) this.#runs.delete(runId);
    } else if (found?.request.path === path) this.#runs.delete(runId);
  }

  /** Forgets them all. */
  clear(): void {
    this.#runs.clear();
  }
}
