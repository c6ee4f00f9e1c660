import { TroupeError, withHistory, type AgentEvent, type AgentSnapshot, type Message, type RunId } from '@troupe/core';
import type { ChildRecord, RunRecord, RunStore } from './run-store.js';
import { RunStoreErrorCode } from '../runtime-error-codes.js';

interface Entry {
  record: RunRecord;
  events: AgentEvent[];
  heads: Map<string, AgentSnapshot>;
  histories: Map<string, Message[]>;
  children: Map<string, ChildRecord>;
}

function childKey(parent: string, toolCallId: string): string {
  return `${parent}\u0000${toolCallId}`;
}

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
      runs.set(record.id, { record: { ...record }, events: [], heads: new Map(), histories: new Map(), children: new Map() });
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
    saveCheckpoint: async (id, { head, from, added }) => {
      const found = entry(id);
      const history = found.histories.get(head.agentPath) ?? [];
      history.length = Math.min(history.length, from);
      for (const message of added) history.push(message);
      found.histories.set(head.agentPath, history);
      // The head shares structure with the live agent, which never mutates what it has stored.
      found.heads.set(head.agentPath, head);
    },
    loadSnapshots: async (id) => {
      const found = entry(id);
      return [...found.heads.values()].map((head) => withHistory(head, [...(found.histories.get(head.agentPath) ?? [])]));
    },
    saveChild: async (id, child) => void entry(id).children.set(childKey(child.parent, child.toolCallId), { ...child }),
    child: async (id, parent, toolCallId) => {
      const found = entry(id).children.get(childKey(parent, toolCallId));
      return found === undefined ? undefined : { ...found };
    },
    children: async (id, parent) => [...entry(id).children.values()].filter((c) => parent === undefined || c.parent === parent).map((c) => ({ ...c })),
    deleteRun: async (id) => {
      entry(id);
      runs.delete(id);
    },
  };
}
