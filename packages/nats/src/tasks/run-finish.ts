import { addUsage, emptyUsage, type AgentPath, type AgentResult, type RunId } from '@troupe/core';
import { finalStatusOf, type RunStore } from '@troupe/runtime';
import type { ActorRecords } from '../actors/actor-records.js';

/**
 * Records the end of a distributed run when its entry actor (`path`) ends on a worker — whether
 * or not the process that started the run is still there to do it: status, stop reason, the end
 * time, and usage summed over every actor of the run.
 */
export async function finishRun(store: RunStore, records: ActorRecords, runId: RunId, path: AgentPath, result: AgentResult): Promise<void> {
  const run = await store.getRun(runId);
  if (run === undefined || run.entry !== path) return;
  let usage = emptyUsage();
  for (const { record } of await records.list(runId)) if (record.result !== undefined) usage = addUsage(usage, record.result.usage);
  await store.updateRun(runId, {
    status: finalStatusOf(result.stopReason),
    stopReason: result.stopReason,
    endedAt: Date.now(),
    usage,
    ...(result.error === undefined ? {} : { error: result.error }),
  });
}
