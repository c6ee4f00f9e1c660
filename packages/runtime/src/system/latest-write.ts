/**
 * Writes a value whose newest state is all that matters (a run's usage so far) one write at a
 * time: a value given while a write is in flight replaces any value already waiting, and is
 * written once that write has settled. Failures go to `onError`.
 */
export function latestWrite<T>(write: (value: T) => Promise<void>, onError: (error: unknown) => void = () => undefined): (value: T) => void {
  let writing = false;
  let next: { value: T } | undefined;
  const start = (value: T): void => {
    writing = true;
    write(value)
      .catch(onError)
      .finally(() => {
        writing = false;
        const waiting = next;
        next = undefined;
        if (waiting !== undefined) start(waiting.value);
      });
  };
  return (value) => {
    if (writing) next = { value };
    else start(value);
  };
}
