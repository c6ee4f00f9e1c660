import { addUsage, emptyUsage, type AgentEvent, type Usage } from '@troupe/core';
import type { RunRecord, RunStore } from '@troupe/runtime';

/**
 * What a run has spent, as `troupe runs` and `troupe show` both show it: its record's usage (kept
 * up to date while the run goes on), or the sum of its usage events (`events`, else read from the
 * store) for a record that has none yet — one number wherever it is shown.
 */
export async function runUsageOf(store: RunStore, run: RunRecord, events?: readonly AgentEvent[]): Promise<Usage> {
  if (run.usage !== undefined) return run.usage;
  let usage = emptyUsage();
  for (const event of events ?? (await store.readEvents(run.id))) if (event.type === 'usage') usage = addUsage(usage, event.usage);
  return usage;
}
