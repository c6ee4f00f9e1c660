/** A writer made by {@link latestWrite}: call it with each new value. */
export interface LatestWriter<T> {
  (value: T): void;
  /** Resolves once the newest value given so far is written (or its write has failed), without waiting out the spacing. */
  settle(): Promise<void>;
  /** Resolves once nothing is written or waits, the spacing after the last write included. */
  idle(): Promise<void>;
  /** Drops the value that waits (a later write carries it); resolves once the write in flight has settled. */
  drop(): Promise<void>;
}

/**
 * Writes a value whose newest state is all that matters (a run's usage so far) one write at a
 * time, at most once per turn of the event loop and, with `spacingMs`, at most once per that many
 * milliseconds: values given meanwhile (within one turn, during a write in flight, or before the
 * spacing is up) replace each other, and the newest is written next. `settle` writes what waits at
 * once. Failures go to `onError`.
 */
export function latestWrite<T>(write: (value: T) => Promise<void>, onError: (error: unknown) => void = ignore, spacingMs = 0): LatestWriter<T> {
  let waiting: { value: T } | undefined;
  /** The write in flight, or the pause before the next one. */
  let busy: Promise<void> | undefined;
  /** When the latest write started, for the spacing (`performance.now()`). */
  let startedAt = Number.NEGATIVE_INFINITY;
  /** Ends a spaced pause early (`settle` does not wait it out). */
  let hurry: (() => void) | undefined;
  const pause = (): Promise<void> => {
    const left = spacingMs > 0 ? startedAt + spacingMs - performance.now() : 0;
    if (left <= 0) return nextTurn();
    return new Promise((resolve) => {
      const end = (): void => {
        clearTimeout(timer);
        hurry = undefined;
        resolve();
      };
      const timer = setTimeout(end, left);
      hurry = end;
    });
  };
  const start = (): Promise<void> => {
    const next = waiting;
    waiting = undefined;
    if (next === undefined) {
      busy = undefined;
      return Promise.resolve();
    }
    if (spacingMs > 0) startedAt = performance.now();
    busy = write(next.value)
      .catch(onError)
      .then(() => {
        // A value given meanwhile waits for the next turn (and the spacing), so a burst costs one more write, not one each.
        // With a spacing, the writer stays busy until it is up, even with nothing waiting yet.
        busy = waiting === undefined && spacingMs === 0 ? undefined : pause().then(start);
      });
    return busy;
  };
  const writer = (value: T): void => {
    waiting = { value };
    busy ??= pause().then(start);
  };
  const drain = async (hurried: boolean): Promise<void> => {
    while (busy !== undefined || waiting !== undefined) {
      if (hurried) hurry?.();
      await (busy ?? start());
    }
  };
  writer.settle = (): Promise<void> => drain(true);
  writer.idle = (): Promise<void> => drain(false);
  writer.drop = (): Promise<void> => {
    waiting = undefined;
    return drain(true);
  };
  return writer;
}

function nextTurn(): Promise<void> {
  return new Promise((resolve) => setImmediate(resolve));
}

/** The default `onError`: one function for every writer, not a closure each. */
function ignore(): void {}
