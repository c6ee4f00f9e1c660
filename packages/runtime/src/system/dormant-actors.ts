import { OutcomeWaiters, type OutcomeWaiter } from './outcome.js';
import { PathMap } from './path-map.js';
import type { SpawnRequest, Transport } from './transport.js';

/**
 * A hibernated actor: what restores it (its spawn request, without the snapshot it was built
 * from, and the transport its tools reach others through), who waits for its outcome, and its
 * restoration once something asked for it. Many of these may sleep for days: its outcome is its
 * waiters alone (no promise, unless one was asked for), and its request is the one it was spawned
 * with unless that carried a snapshot (a copy of it then, without the stale snapshot).
 */
export class DormantActor {
  readonly request: SpawnRequest;
  readonly transport: Transport;
  /** Who waits for its outcome: one waiter as it is, several as a list. */
  #waiters: OutcomeWaiter | undefined;
  /** Its restoration, once something asked for it. */
  waking: Promise<void> | undefined = undefined;

  constructor(request: SpawnRequest, transport: Transport, waiters: OutcomeWaiter | undefined) {
    if (request.snapshot === undefined) this.request = request;
    else {
      // The snapshot it was built from is stale now: the store's checkpoint is the truth.
      const { snapshot: _stale, ...rest } = request;
      this.request = rest;
    }
    this.transport = transport;
    this.#waiters = waiters;
  }

  /** Tells `waiter` its outcome once the actor woken in its place ends. */
  whenEnded(waiter: OutcomeWaiter): void {
    this.#waiters = OutcomeWaiters.join(this.#waiters, waiter);
  }

  /** Who waits for its outcome, for the actor woken in its place to tell; undefined when nobody does. */
  waiters(): OutcomeWaiter | undefined {
    return this.#waiters;
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
