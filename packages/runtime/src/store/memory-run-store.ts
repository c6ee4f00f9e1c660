import { TroupeError, withHistory, type AgentEvent, type AgentSnapshot, type Message, type RunId } from '@troupe/core';
import type { ChildRecord, RunRecord, RunStore } from './run-store.js';
import { RunStoreErrorCode } from '../runtime-error-codes.js';
import { PathMap } from '../system/path-map.js';

/** An actor's latest checkpoint head and its history, as appended. */
interface ActorEntry {
  head: AgentSnapshot;
  history: Message[];
}

/** What is kept of a run: the maps are made at their first entry (a waiting run has no children, and many runs wait). */
interface Entry {
  record: RunRecord;
  events: AgentEvent[];
  actors: PathMap<ActorEntry> | undefined;
  children: Map<string, ChildRecord> | undefined;
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
      // Copied with Object.assign: a spread copy that later gains a field (usage, turns) got a hidden class of its own.
      runs.set(record.id, { record: Object.assign({}, record), events: [], actors: undefined, children: undefined });
    },
    updateRun: async (id, patch) => {
      // In place: the record is never handed out (readers get copies), and a new object per update gave each record a hidden class of its own.
      Object.assign(entry(id).record, structuredClone(patch));
    },
    getRun: async (id) => structuredClone(runs.get(id)?.record),
    listRuns: async () => [...runs.values()].map((e) => structuredClone(e.record)),
    appendEvent: (event) => runs.get(event.runId)?.events.push(event),
    flush: async (id) => void entry(id),
    readEvents: async (id) => [...entry(id).events],
    saveCheckpoint: async (id, { head, from, added }) => {
      const found = entry(id);
      found.actors ??= new PathMap();
      const actor = found.actors.get(head.agentPath);
      // The head shares structure with the live agent, which never mutates what it has stored.
      // A first history is a copy of the exact size (pushing into an empty array reserves room for 17 messages).
      if (actor === undefined) found.actors.set(head.agentPath, { head, history: added.slice() });
      else {
        const history = actor.history;
        // Cut only when the history was replaced: setting an array's length, even to the same, is a call into the runtime.
        if (history.length > from) history.length = from;
        for (const message of added) history.push(message);
        actor.head = head;
      }
    },
    loadSnapshots: async (id) => [...(entry(id).actors?.values() ?? [])].map(({ head, history }) => withHistory(head, [...history])),
    saveChild: async (id, child) => {
      const found = entry(id);
      found.children ??= new Map();
      // Object.assign, not a spread: in Node 20 a spread copy of a record with its outcome leaves V8's fast clone path.
      found.children.set(childKey(child.parent, child.toolCallId), Object.assign({}, child));
    },
    child: async (id, parent, toolCallId) => {
      const found = entry(id).children?.get(childKey(parent, toolCallId));
      return found === undefined ? undefined : { ...found };
    },
    children: async (id, parent) => [...(entry(id).children?.values() ?? [])].filter((c) => parent === undefined || c.parent === parent).map((c) => ({ ...c })),
    deleteRun: async (id) => {
      entry(id);
      runs.delete(id);
    },
  };
}
