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
 */
export function latestWrite<T>(write: (value: T) => Promise<void>, onError: (error: unknown) => void = ignore): LatestWriter<T> {
  let waiting: { value: T } | undefined;
  /** The write in flight, or the turn it waits for. */
  let busy: Promise<void> | undefined;
  const start = (): Promise<void> => {
    const next = waiting;
    waiting = undefined;
    if (next === undefined) {
      busy = undefined;
      return Promise.resolve();
    }
    busy = write(next.value)
      .catch(onError)
      .then(() => {
        // A value given meanwhile waits for the next turn, so a burst costs one more write, not one each.
        busy = waiting === undefined ? undefined : nextTurn().then(start);
      });
    return busy;
  };
  const writer = (value: T): void => {
    waiting = { value };
    busy ??= nextTurn().then(start);
  };
  writer.settle = async (): Promise<void> => {
    while (busy !== undefined || waiting !== undefined) await (busy ?? start());
  };
  writer.drop = (): Promise<void> => {
    waiting = undefined;
    return writer.settle();
  };
  writer.isIdle = (): boolean => busy === undefined && waiting === undefined;
  return writer;
}

function nextTurn(): Promise<void> {
  return new Promise((resolve) => setImmediate(resolve));
}

/** The default `onError`: one function for every writer, not a closure each. */
function ignore(): void {}
