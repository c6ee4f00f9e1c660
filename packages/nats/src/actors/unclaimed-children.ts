import { parseAgentPath, TroupeError, type AgentPath, type RunId } from '@troupe/core';
import { RunStoreErrorCode, type ChildRecord, type RunStore } from '@troupe/runtime';

/**
 * A child actor on the task queue has no record until a worker claims it (see
 * `NatsTransport.claim`): its delegation's (or pipeline step's) child record is what says it was
 * spawned. The record of the child at `path`, or undefined when its parent has none such.
 */
export async function unclaimedChild(store: RunStore, runId: RunId, path: AgentPath): Promise<ChildRecord | undefined> {
  const cut = path.lastIndexOf('/');
  if (cut < 0) return undefined;
  return (await childrenOf(store, runId, parseAgentPath(path.slice(0, cut)))).find((child) => child.path === path);
}

/** The children of run `runId` whose paths are not among `recorded` (those with an actor record): spawned, not claimed yet. */
export async function unclaimedChildren(store: RunStore, runId: RunId, recorded: ReadonlySet<string>): Promise<ChildRecord[]> {
  return (await childrenOf(store, runId)).filter((child) => !recorded.has(child.path));
}

async function childrenOf(store: RunStore, runId: RunId, parent?: AgentPath): Promise<ChildRecord[]> {
  try {
    return await store.children(runId, parent);
  } catch (error) {
    if (error instanceof TroupeError && error.code === RunStoreErrorCode.UnknownRun) return [];
    throw error;
  }
}
