import type { RunId } from '@troupe/core';
import type { RunStore } from '../store/run-store.js';
import { latestWrite, type LatestWriter } from './latest-write.js';
import type { RunProgress } from './run-handle.js';

/** A run's progress writer while it has writes to make, and how many values it has been given. */
interface Writing {
  writer: LatestWriter<RunProgress>;
  given: number;
}

/**
 * How often at most a run's usage and turns are written while it goes: every turn's write was a
 * stored message per turn on NATS (a tenth of a remote delegation's) and a rewritten `run.json` in
 * the file store, for figures that `troupe runs` shows to a person. Settling writes the newest at once.
 */
export const PROGRESS_SPACING_MS = 200;

/**
 * Writes each run's usage and turns to its record as they grow (at most once per turn of the
 * event loop and once per {@link PROGRESS_SPACING_MS}, the newest value winning: see
 * {@link latestWrite}); the runtime settles a run's progress before it writes the run's waiting or
 * final record. A run keeps a writer only while
 * it has writes to make: many runs wait (or sleep) for days with nothing to write, and a writer
 * with its closures was a good part of what each kept. A value given after a run's writer was
 * let go makes a new one, whose writes come after the old one's (it was let go once they settled).
 */
export class ProgressWrites {
  readonly #store: RunStore;
  readonly #spacingMs: number;
  readonly #writing = new Map<RunId, Writing>();

  constructor(store: RunStore, spacingMs = PROGRESS_SPACING_MS) {
    this.#store = store;
    this.#spacingMs = spacingMs;
  }

  /** How many runs keep a writer: those with progress still to write. */
  get size(): number {
    return this.#writing.size;
  }

  /** Writes `progress` as run `id`'s latest. */
  write(id: RunId, progress: RunProgress): void {
    let writing = this.#writing.get(id);
    if (writing === undefined) {
      const store = this.#store;
      writing = { writer: latestWrite(({ usage, turns }: RunProgress) => store.updateRun(id, { usage, turns }), undefined, this.#spacingMs), given: 0 };
      this.#writing.set(id, writing);
    }
    writing.given += 1;
    writing.writer(progress);
    // One watch per writer at a time: it starts with the first value and goes on while values come.
    if (writing.given === 1) this.#letGoWhenIdle(id, writing);
  }

  /** Resolves once run `id`'s progress given so far is written; its writer is let go. */
  async settle(id: RunId): Promise<void> {
    const writing = this.#writing.get(id);
    if (writing === undefined) return;
    const given = writing.given;
    await writing.writer.settle();
    if (this.#writing.get(id) === writing && writing.given === given) this.#writing.delete(id);
  }

  /**
   * For a run whose final record, with its usage and turns, is about to be written: drops the
   * progress that waits for the spacing, and resolves once the write in flight has settled (its
   * record is then never written over by an older progress); its writer is let go.
   */
  async end(id: RunId): Promise<void> {
    const writing = this.#writing.get(id);
    if (writing === undefined) return;
    this.#writing.delete(id);
    await writing.writer.drop();
  }

  /** Resolves once every run's progress given so far is written. */
  async settleAll(): Promise<void> {
    await Promise.all([...this.#writing.keys()].map((id) => this.settle(id)));
  }

  /** Lets `writing` go once its writes have settled, and the spacing after them is up, with no value given meanwhile. */
  #letGoWhenIdle(id: RunId, writing: Writing): void {
    const given = writing.given;
    // Not `settle`: it would cut the spacing short, and the next value would make a writer that writes at once.
    void writing.writer.idle().then(() => {
      if (this.#writing.get(id) !== writing) return;
      if (writing.given === given) this.#writing.delete(id);
      else this.#letGoWhenIdle(id, writing);
    });
  }
}
