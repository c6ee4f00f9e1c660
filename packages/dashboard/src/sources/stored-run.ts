import type { Message, RunId } from '@troupe/core';
import { hasEnded, type RunRecord, type RunStore } from '@troupe/runtime';
import { DashboardError, DashboardErrorCode } from '../dashboard-error.js';

/** The conversation of the actor at `path`, from its latest checkpoint in `store` (none before its first). */
export async function checkpointedMessages(store: RunStore, id: RunId, path: string): Promise<Message[]> {
  const snapshot = (await store.loadSnapshots(id)).find((s) => s.agentPath === path);
  return (snapshot?.context.messages ?? []) as Message[];
}

/** Throws `run_ended` for a run that has ended: there is nothing left to act on. */
export function assertNotEnded(run: RunRecord): void {
  if (hasEnded(run.status)) throw new DashboardError(DashboardErrorCode.RunEnded, `run ${run.id} has ended (${run.status}): there is nothing to act on`);
}
