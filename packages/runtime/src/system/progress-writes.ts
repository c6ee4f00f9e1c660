import type { RunId } from '@troupe/core';
import type { RunStore } from '../store/run-store.js';
import { LatestWrite } from './latest-write.js';
import type { RunProgress } from './run-handle.js';

/**
 * How often at most a run's usage and turns are written while it goes: every turn's write was a
 * stored message per turn on NATS (a tenth of a remote delegation's) and a rewritten `run.json` in
 * the file store, for figures that `troupe runs` shows to a person.
 */
export const PROGRESS_SPACING_MS = 200;

/**
 * A run's progress writer while it has writes to make or is within the spacing after one: one
 * object, no closures (every run that just made progress keeps one for the spacing, and a burst of
 * thousands of runs keeps thousands).
 */
class Writing extends LatestWrite<RunProgress> {
  readonly #store: RunStore;
  readonly #id: RunId;
  /** When its latest value was handed on to be written (`performance.now()`). */
  sentAt: number;
  /** The newest value, held until the spacing is up. */
  held: RunProgress | undefined = undefined;

  constructor(store: RunStore, id: RunId, sentAt: number) {
    super();
    this.#store = store;
    this.#id = id;
    this.sentAt = sentAt;
  }

  protected override write({ usage, turns }: RunProgress): Promise<void> {
    return this.#store.updateRun(this.#id, { usage, turns });
  }
}

/**
 * Writes each run's usage and turns to its record as they grow: the first value at once (at the
 * next turn of the event loop, see {@link latestWrite}), later ones at most once per spacing, the
 * newest winning. One timer for all runs hands held values on and lets writers go once the
 * spacing after their last write is up with nothing more to write: many runs wait (or sleep) for
 * days with nothing to write, and a writer with its closures (or a timer each) was a good part of
 * what each kept. `settle` writes what is held at once; `end` drops it, for a run whose final
 * record carries the same figures.
 */
export class ProgressWrites {
  readonly #store: RunStore;
  readonly #spacingMs: number;
  readonly #writing = new Map<RunId, Writing>();
  #timer: ReturnType<typeof setTimeout> | undefined;

  constructor(store: RunStore, spacingMs = PROGRESS_SPACING_MS) {
    this.#store = store;
    this.#spacingMs = spacingMs;
  }

  /** How many runs keep a writer: those with progress to write, or written within the spacing. */
  get size(): number {
    return this.#writing.size;
  }

  /** Writes `progress` as run `id`'s latest. */
  write(id: RunId, progress: RunProgress): void {
    const now = performance.now();
    const writing = this.#writing.get(id);
    if (writing === undefined) {
      const writing = new Writing(this.#store, id, now);
      this.#writing.set(id, writing);
      writing.give(progress);
      this.#tick();
    } else if (now - writing.sentAt >= this.#spacingMs) {
      writing.held = undefined;
      writing.sentAt = now;
      writing.give(progress);
    } else {
      writing.held = progress;
      this.#timer?.ref?.();
    }
  }

  /** Resolves once run `id`'s progress given so far is written; its writer is let go. */
  async settle(id: RunId): Promise<void> {
    const writing = this.#writing.get(id);
    if (writing === undefined) return;
    if (writing.held !== undefined) writing.give(writing.held);
    writing.held = undefined;
    await writing.settle();
    if (this.#writing.get(id) === writing && writing.held === undefined && writing.isIdle()) this.#letGo(id);
  }

  /**
   * For a run whose final record, with its usage and turns, is about to be written: drops the
   * progress held for the spacing, and resolves once the write in flight has settled (its record
   * is then never written over by an older progress); its writer is let go.
   */
  async end(id: RunId): Promise<void> {
    const writing = this.#writing.get(id);
    if (writing === undefined) return;
    this.#letGo(id);
    await writing.drop();
  }

  /** Resolves once every run's progress given so far is written. */
  async settleAll(): Promise<void> {
    await Promise.all([...this.#writing.keys()].map((id) => this.settle(id)));
  }

  /** Starts the one timer, if it is not running, while any run keeps a writer. */
  #tick(): void {
    if (this.#timer !== undefined || this.#writing.size === 0) return;
    this.#timer = setTimeout(() => {
      this.#timer = undefined;
      this.#sweep();
      this.#tick();
    }, this.#spacingMs);
    // A held value keeps the process alive until it is written; a mere spacing does not.
    if (!this.#holds()) this.#timer.unref?.();
  }

  /** Hands on each value held past its spacing, and lets go of writers idle past theirs. */
  #sweep(): void {
    const now = performance.now();
    for (const [id, writing] of this.#writing) {
      if (now - writing.sentAt < this.#spacingMs) continue;
      if (writing.held !== undefined) {
        writing.give(writing.held);
        writing.held = undefined;
        writing.sentAt = now;
      } else if (writing.isIdle()) this.#writing.delete(id);
    }
  }

  /** Forgets run `id`'s writer; the timer stops with the last one. */
  #letGo(id: RunId): void {
    this.#writing.delete(id);
    if (this.#writing.size > 0 || this.#timer === undefined) return;
    clearTimeout(this.#timer);
    this.#timer = undefined;
  }

  #holds(): boolean {
    for (const writing of this.#writing.values()) if (writing.held !== undefined) return true;
    return false;
  }
}
