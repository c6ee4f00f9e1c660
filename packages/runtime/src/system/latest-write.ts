/** A writer made by {@link latestWrite}: call it with each new value. */
export interface LatestWriter<T> {
  (value: T): void;
  /** Resolves once the newest value given so far is written (or its write has failed). */
  settle(): Promise<void>;
  /** Drops the value that waits (a later write carries it); resolves once the write in flight has settled. */
  drop(): Promise<void>;
  /** Whether nothing is being written and nothing waits. */
  isIdle(): boolean;
}

/**
 * Writes a value whose newest state is all that matters (a run's usage so far) one write at a
 * time, at most once per turn of the event loop: values given within one turn (or while a write
 * is in flight) replace each other, and the newest is written at the next turn (or once that
 * write has settled). Failures go to `onError`.
 *
 * A class, its state in fields and its steps in methods: many runs keep one each (a run's progress
 * writer, see `ProgressWrites`), and the closures of a function-made writer were ~500 bytes a run.
 * Subclasses give {@link LatestWrite.write} instead of a function of their own.
 */
export class LatestWrite<T> {
  /** The writers whose value waits for the next turn, for one `setImmediate` for all of them (one each, with its promise, was ~400 bytes a run). */
  static #nextTurn: LatestWrite<unknown>[] = [];
  /** Whether a value waits in {@link #waiting} (a value may be `undefined`). */
  #hasWaiting = false;
  #waiting: T | undefined;
  /** Whether this writer is in the next turn's list, to start writing then. */
  #scheduled = false;
  /** The write in flight. */
  #busy: Promise<void> | undefined;
  readonly #onError: (error: unknown) => void;

  constructor(onError: (error: unknown) => void = ignore) {
    this.#onError = onError;
  }

  /** Gives the newest value: it is written at the next turn, or once the write in flight has settled. */
  give(value: T): void {
    this.#waiting = value;
    this.#hasWaiting = true;
    if (this.#busy === undefined) this.#schedule();
  }

  /** Resolves once the newest value given so far is written (or its write has failed). */
  async settle(): Promise<void> {
    while (this.#busy !== undefined || this.#hasWaiting) {
      if (this.#busy !== undefined) await this.#busy;
      else {
        // Written now rather than at the next turn: the turn's list skips a writer no longer scheduled.
        this.#scheduled = false;
        await this.#start();
      }
    }
  }

  /** Drops the value that waits (a later write carries it); resolves once the write in flight has settled. */
  drop(): Promise<void> {
    this.#hasWaiting = false;
    this.#waiting = undefined;
    return this.settle();
  }

  /** Whether nothing is being written and nothing waits. */
  isIdle(): boolean {
    return this.#busy === undefined && !this.#hasWaiting;
  }

  /** Writes one value (given by the subclass). */
  protected write(_value: T): Promise<void> {
    return Promise.resolve();
  }

  #schedule(): void {
    if (this.#scheduled) return;
    this.#scheduled = true;
    const due = LatestWrite.#nextTurn;
    due.push(this);
    if (due.length === 1) setImmediate(LatestWrite.#turn);
  }

  /** The next turn: each writer still scheduled starts writing. */
  static #turn(this: void): void {
    const due = LatestWrite.#nextTurn;
    LatestWrite.#nextTurn = [];
    for (const writer of due) {
      if (!writer.#scheduled) continue;
      writer.#scheduled = false;
      void writer.#start();
    }
  }

  /** Writes the value that waits, if one does; resolves once that write has settled. */
  #start(): Promise<void> {
    if (!this.#hasWaiting) return Promise.resolve();
    const value = this.#waiting as T;
    this.#hasWaiting = false;
    this.#waiting = undefined;
    const busy = this.write(value)
      .catch(this.#onError)
      .then(() => {
        this.#busy = undefined;
        // A value given meanwhile waits for the next turn, so a burst costs one more write, not one each.
        if (this.#hasWaiting) this.#schedule();
      });
    this.#busy = busy;
    return busy;
  }
}

/** A {@link LatestWrite} that writes with `write`. */
class FunctionWrite<T> extends LatestWrite<T> {
  readonly #write: (value: T) => Promise<void>;

  constructor(write: (value: T) => Promise<void>, onError: (error: unknown) => void) {
    super(onError);
    this.#write = write;
  }

  protected override write(value: T): Promise<void> {
    return this.#write(value);
  }
}

/** A {@link LatestWrite} that writes with `write`, as a function to call with each new value. */
export function latestWrite<T>(write: (value: T) => Promise<void>, onError: (error: unknown) => void = ignore): LatestWriter<T> {
  const latest = new FunctionWrite(write, onError);
  const writer = (value: T): void => latest.give(value);
  writer.settle = (): Promise<void> => latest.settle();
  writer.drop = (): Promise<void> => latest.drop();
  writer.isIdle = (): boolean => latest.isIdle();
  return writer;
}

/** The default `onError`: one function for every writer, not a closure each. */
function ignore(): void {}
