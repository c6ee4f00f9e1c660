import { setTimeout as sleep } from 'node:timers/promises';
import { mb } from './measure.js';

/** How long the process is left alone before and after its last collection. */
const SETTLE_MS = 1000;

const pause = (): Promise<void> => sleep(SETTLE_MS);

/**
 * Heap and RSS in MB once the process is quiet: the store writes still in flight when the figures
 * are taken at once land (a file store has a thousand or more open then), a collection runs, and
 * V8 gets to return the pages it freed (its unmapping runs on a thread of its own, later). Runs
 * that wait for a user wait minutes or days: this is the footprint they keep. The benchmarks
 * report it beside the figure taken at once, not instead of it.
 */
export async function settledMemoryMb(): Promise<{ settled_rss_mb: number; settled_heap_mb: number }> {
  await pause();
  globalThis.gc?.();
  const heap = process.memoryUsage().heapUsed;
  await pause();
  return { settled_rss_mb: mb(process.memoryUsage().rss), settled_heap_mb: mb(heap) };
}
