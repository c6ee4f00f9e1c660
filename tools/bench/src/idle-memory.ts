import { constants, PerformanceObserver } from 'node:perf_hooks';
import { setTimeout as sleep } from 'node:timers/promises';
import { mb, numberArg, round1 } from './measure.js';

/** The longest wait for V8's memory reducer (`--idle-limit-s`, default 150): here it came 24 to 110 s after the burst. */
const IDLE_LIMIT_MS = numberArg('idle-limit-s', 150) * 1000;
/** How long nothing more may come after its last collection before the reading. */
const QUIET_MS = 3_000;
const POLL_MS = 250;

/** What {@link idleMemoryMb} reads. */
export interface IdleMemory {
  idle_rss_mb: number;
  idle_heap_mb: number;
  idle_heap_total_mb: number;
  /** Seconds until V8's memory reducer had run and settled; the limit when it never ran. */
  idle_after_s: number;
  /** 1 when the memory reducer ran within the limit, else 0 (the figures are then what was left). */
  idle_reduced: number;
}

/** Whether a `gc` performance entry is one of the memory reducer's collections (its `detail` says: Node's types leave it out). */
function reducesMemory(entry: object): boolean {
  const detail = 'detail' in entry ? entry.detail : undefined;
  if (typeof detail !== 'object' || detail === null || !('kind' in detail) || !('flags' in detail)) return false;
  const { kind, flags } = detail as { kind: number; flags: number };
  // Its collections are major and collect all external memory; the busy process's are neither.
  return kind === constants.NODE_PERFORMANCE_GC_MAJOR && (flags & constants.NODE_PERFORMANCE_GC_FLAGS_ALL_EXTERNAL_MEMORY) !== 0;
}

/**
 * Heap and RSS in MB once the process has been idle long enough for V8's memory reducer to run.
 * After a burst of work V8 keeps the old generation it grew, fragmented: pages that each hold a few
 * long-lived objects among the garbage of the burst. A process left idle gets a few
 * memory-reducing, compacting collections (half a minute to two minutes later here) that give those
 * pages back. Runs waiting for a person wait minutes or days, so this is the footprint a host of
 * them keeps. Waits until those collections have run and a few quiet seconds passed, at most
 * {@link IDLE_LIMIT_MS}; `idle_reduced` says whether they came.
 */
export async function idleMemoryMb(): Promise<IdleMemory> {
  const started = performance.now();
  let reduced: number | undefined;
  const observer = new PerformanceObserver((list) => {
    for (const entry of list.getEntries()) if (reducesMemory(entry)) reduced = performance.now();
  });
  observer.observe({ entryTypes: ['gc'] });
  for (;;) {
    await sleep(POLL_MS);
    const now = performance.now();
    if ((reduced !== undefined && now - reduced >= QUIET_MS) || now - started >= IDLE_LIMIT_MS) break;
  }
  observer.disconnect();
  const { rss, heapUsed, heapTotal } = process.memoryUsage();
  return {
    idle_rss_mb: mb(rss),
    idle_heap_mb: mb(heapUsed),
    idle_heap_total_mb: mb(heapTotal),
    idle_after_s: round1((performance.now() - started) / 1000),
    idle_reduced: reduced === undefined ? 0 : 1,
  };
}
