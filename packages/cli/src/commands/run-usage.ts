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

/**
 * The run's turns, as `troupe runs` and `troupe show` both show them: its record's (kept up to
 * date while the run goes on), or, for a record from before they were kept, each actor's latest
 * turn in its events (`events`, else read from the store), summed.
 */
export async function runTurnsOf(store: RunStore, run: RunRecord, events?: readonly AgentEvent[]): Promise<number> {
  if (run.turns !== undefined) return run.turns;
  const latest = new Map<string, number>();
  for (const event of events ?? (await store.readEvents(run.id)))
    if (event.type === 'turn_start' && event.turn > (latest.get(event.agentPath) ?? 0)) latest.set(event.agentPath, event.turn);
  let turns = 0;
  for (const turn of latest.values()) turns += turn;
  return turns;
}
