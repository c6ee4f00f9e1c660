import v8 from 'node:v8';
import { mb } from './measure.js';

/**
 * The V8 heap as committed, in MB: `heap_total_mb` (every space) and `old_space_mb` (the old
 * generation, where fragmentation shows: committed pages that each keep a few live objects, which
 * RSS counts however little of them is in use).
 */
export function heapCommittedMb(): { heap_total_mb: number; old_space_mb: number } {
  const old = v8.getHeapSpaceStatistics().find((space) => space.space_name === 'old_space');
  return { heap_total_mb: mb(process.memoryUsage().heapTotal), old_space_mb: mb(old?.space_size ?? 0) };
}
