import { TroupeError, type AgentEvent, type AgentSnapshot, type RunId } from '@troupe/core';
import type { ChildRecord, RunRecord, RunStore } from './run-store.js';

interface Entry {
  record: RunRecord;
  events: AgentEvent[];
  snapshots: Map<string, AgentSnapshot>;
  children: Map<string, ChildRecord>;
}

/** Error codes of run stores. */
export const RunStoreErrorCode = { UnknownRun: 'unknown_run', Corrupt: 'corrupt_run_store' } as const;

/** A run store in memory: the default of the library, lost with the process. */
export function createMemoryRunStore(): RunStore {
  const runs = new Map<string, Entry>();
  const entry = (id: RunId): Entry => {
    const found = runs.get(id);
    if (found === undefined) throw new TroupeError(RunStoreErrorCode.UnknownRun, `unknown run ${id}`);
    return found;
  };
  return {
    createRun: async (record) => {
      runs.set(record.id, { record: structuredClone(record), events: [], snapshots: new Map(), children: new Map() });
    },
    updateRun: async (id, patch) => {
      const found = entry(id);
      found.record = { ...found.record, ...structuredClone(patch) };
    },
    getRun: async (id) => structuredClone(runs.get(id)?.record),
    listRuns: async () => [...runs.values()].map((e) => structuredClone(e.record)),
    appendEvent: (event) => runs.get(event.runId)?.events.push(event),
    flush: async (id) => void entry(id),
    readEvents: async (id) => [...entry(id).events],
    saveSnapshot: async (id, snapshot) => void entry(id).snapshots.set(snapshot.agentPath, snapshot),
    loadSnapshots: async (id) => [...entry(id).snapshots.values()],
    saveChild: async (id, child) => void entry(id).children.set(`${child.parent} ${child.toolCallId}`, structuredClone(child)),
    children: async (id) => [...entry(id).children.values()].map((c) => structuredClone(c)),
  };
}
