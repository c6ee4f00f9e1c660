import type { Clock } from '@troupe/core';

/** A sleep on `clock` that ends early (resolving) when `signal` fires: supervision back-off waits with it. */
export function clockSleep(clock: Clock): (ms: number, signal: AbortSignal) => Promise<void> {
  return (ms, signal) =>
    new Promise((resolve) => {
      const handle = clock.setTimeout(resolve, ms);
      signal.addEventListener(
        'abort',
        () => {
          clock.clearTimeout(handle);
          resolve();
        },
        { once: true },
      );
    });
}
