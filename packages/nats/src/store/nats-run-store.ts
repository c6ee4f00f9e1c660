import { parseAgentSnapshot, TroupeError, withHistory, type AgentSnapshot, type Message, type RunId } from '@troupe/core';
import { hasEnded, RunStoreErrorCode, type ChildRecord, type RunRecord, type RunStore } from '@troupe/runtime';
import { isWrongLastSequence } from '../connection/bucket.js';
import { atNextWrite } from '../connection/write-coalescing.js';
import { listKeys, parseStored, readEntries, readEntry, type StoredShape } from './kv-entries.js';
import { chunkJson, encodeHead, extendTail, readHistory, type HistoryTail } from './message-chunks.js';
import { fromKeyToken, keyToken, kvKey } from '../connection/nats-names.js';
import type { NatsResources } from '../connection/nats-resources.js';
import { purgeRun } from './purge-run.js';
import { readRunEvents } from '../events/run-events.js';
import { mergeCheckpoint, pendingCheckpoint, type PendingCheckpoint } from './pending-checkpoint.js';
import { WriteChains } from './write-chains.js';

/** A {@link RunStore} kept in NATS, shared by every process of a deployment. */
export interface NatsRunStore extends RunStore {
  /** What it is stored in. */
  readonly resources: NatsResources;
}

const RUN_SHAPE: StoredShape = { id: 'string', entry: 'string', status: 'string', startedAt: 'number' };
const CHILD_SHAPE: StoredShape = { parent: 'string', toolCallId: 'string', path: 'string', agent: 'string' };
const HEAD_SHAPE: StoredShape = { agentPath: 'string', historyLength: 'number', context: 'object' };
/**
 * The newest messages of a history travel inside its head, up to this many bytes of JSON, and only
 * then move to a chunk of the messages bucket: a turn usually costs one write, not two.
 */
const TAIL_BYTES = 4096;

/** A checkpoint head as stored: the snapshot without its history, its length, and its newest messages. */
type StoredHead = AgentSnapshot & { historyLength: number; tail?: { from: number; messages: Message[] } };

/** A checkpoint waiting for its write, and that write. */
interface UnwrittenCheckpoint {
  checkpoint: PendingCheckpoint;
  written: Promise<void>;
}

/** Room left in a payload for headers and framing. */
const PAYLOAD_ROOM = 256;
const DEFAULT_MAX_PAYLOAD = 1024 * 1024;

/**
 * The run store of a distributed deployment: run records in the runs bucket (updated with
 * compare-and-set, since a coordinator and a worker may update one run), events on the run's
 * subject of the events stream (through the resources' shared {@link NatsResources.events}
 * publisher), checkpoints as heads (heads bucket) over appended message chunks (messages bucket),
 * delegations in the children bucket. Cheap to create: every store on the same resources shares
 * their connection state and event publisher.
 *
 * Contract (beyond {@link RunStore}'s): writes through this store are applied in call order per
 * record — the run's record, each actor's checkpoints, each delegation — while writes of different
 * records of a run go out at once (a delegation is not held up by its parent's checkpoint); a read
 * waits for the writes it could see; writes wait out a reconnect instead of failing; an actor's
 * checkpoints are group-committed: one made while the previous is not written yet (in the same
 * turn of the event loop, or behind a write in flight) is written with it, as one head holding
 * the later state and the messages of both, and both calls resolve once it is stored; the run's
 * record is updated by compare-and-set at the revision this store last wrote, read again only
 * when another process wrote it meanwhile; `flush` resolves once the events stream has
 * stored every event appended before it (on these resources), and rejects with
 * `nats_event_not_stored` for an event of the run that could not be; a checkpoint message larger
 * than one payload rejects with `nats_message_too_large`; every method but `getRun`, `listRuns`
 * and `appendEvent` rejects with `unknown_run` for a run never created.
 */
export function createNatsRunStore(resources: NatsResources): NatsRunStore {
  const { runs, heads, messages, children, nc, events, connection: watch } = resources;
  const known = new Set<string>();
  const writes = new WriteChains();
  /** Each run's record as this store last wrote it, while the run goes on (see `updateRecord`). */
  const records = new Map<string, KnownRecord>();
  /** Keeps `written` for the next update of run `id`; forgets an ended run's (it is seldom updated again). */
  const remember = (id: RunId, written: KnownRecord): void => {
    if (hasEnded(written.record.status)) records.delete(id);
    else records.set(id, written);
  };
  /** Each actor's history tail as this store last wrote it. */
  const tails = new Map<string, HistoryTail>();
  /** Rejects with `unknown_run` for a run never created (once its record's writes so far have landed). Never call it from a write of the run's record. */
  const requireRun = async (id: RunId): Promise<void> => {
    if (known.has(id)) return;
    await writes.settled([id, 'record']);
    if (known.has(id)) return;
    if ((await readEntry<RunRecord>(runs, kvKey(id), 'run record', RUN_SHAPE)) === undefined) throw unknownRun(resources, id);
    known.add(id);
  };
  /** Waits for the run's writes so far under `part` (all of them by default), then checks it exists (for reads). */
  const afterWrites = async (id: RunId, ...part: string[]): Promise<void> => {
    await writes.settled([id, ...part]);
    await requireRun(id);
  };
  const maxChunkBytes = (): number => (nc.info?.max_payload ?? DEFAULT_MAX_PAYLOAD) - PAYLOAD_ROOM;
  /** Each actor's checkpoint waiting to be written, which later ones join. */
  const unwritten = new Map<string, UnwrittenCheckpoint>();
  /** Stores `checkpoint` of the actor at `key`: message chunks first when its tail grew past {@link TAIL_BYTES}, then its head. */
  const writeCheckpoint = async (id: RunId, key: string, { head, from, added }: PendingCheckpoint): Promise<void> => {
    await requireRun(id);
    const known = tails.get(key) ?? (from > 0 ? await readTail(resources, key) : undefined);
    const tail = extendTail(known, from, added);
    if (tail.bytes > TAIL_BYTES) {
      // Messages first: a head never names messages that are not stored.
      for (const chunk of chunkJson(tail.messages, tail.from, maxChunkBytes(), head.agentPath)) {
        await watch.retry(() => messages.put(kvKey(id, head.agentPath, String(chunk.offset)), chunk.data));
      }
      tail.from += tail.messages.length;
      tail.messages = [];
      tail.bytes = 0;
    }
    const stored = encodeHead(head, from + added.length, tail);
    await watch.retry(() => heads.put(key, stored));
    tails.set(key, tail);
  };

  return {
    resources,
    createRun: (record) =>
      writes.chain([record.id, 'record'], async () => {
        const revision = await watch.retry(() => runs.put(kvKey(record.id), JSON.stringify(record)));
        known.add(record.id);
        remember(record.id, { record, revision });
      }),
    updateRun: (id, patch) =>
      writes.chain([id, 'record'], async () => {
        remember(id, await watch.retry(() => updateRecord(resources, id, patch, records.get(id))));
      }),
    getRun: async (id) => {
      await writes.settled([id, 'record']);
      return readEntry<RunRecord>(runs, kvKey(id), 'run record', RUN_SHAPE);
    },
    listRuns: async () => {
      const records = await readEntries<RunRecord>(runs, await listKeys(runs, '>'), 'run record', RUN_SHAPE);
      return records.sort((a, b) => a.startedAt - b.startedAt);
    },
    appendEvent: (event) => events.publish(event),
    flush: async (id) => {
      await afterWrites(id);
      await events.flush(id);
    },
    readEvents: async (id) => {
      await afterWrites(id);
      await events.settle();
      return readRunEvents(resources, id);
    },
    saveCheckpoint: (id, checkpoint) => {
      const key = kvKey(id, checkpoint.head.agentPath);
      // Group commit: a checkpoint of an actor whose previous one is not written yet (made in the
      // same turn of the event loop, or queued behind a write in flight) joins it, and one write
      // stores both. A lead's turn end and its next turn's tool call are one write, not two.
      const waiting = unwritten.get(key);
      if (waiting !== undefined && mergeCheckpoint(waiting.checkpoint, checkpoint)) return waiting.written;
      const entry: UnwrittenCheckpoint = { checkpoint: pendingCheckpoint(checkpoint), written: Promise.resolve() };
      unwritten.set(key, entry);
      entry.written = writes.chain([id, 'checkpoint', checkpoint.head.agentPath], async () => {
        // Gathered until this turn's write is out (a task or an end record in it does not wait for
        // this encoding), then written in the next.
        await new Promise<void>((resolve) => atNextWrite(nc, resolve));
        if (unwritten.get(key) === entry) unwritten.delete(key);
        await writeCheckpoint(id, key, entry.checkpoint);
      });
      return entry.written;
    },
    loadSnapshots: async (id) => {
      await afterWrites(id, 'checkpoint');
      const paths = (await listKeys(heads, `${keyToken(id)}.*`)).map((key) => fromKeyToken(key.slice(key.indexOf('.') + 1)));
      const snapshots = await Promise.all(paths.map((path) => loadSnapshot(resources, id, path)));
      return snapshots.filter((snapshot): snapshot is AgentSnapshot => snapshot !== undefined);
    },
    saveChild: (id, child) =>
      writes.chain([id, 'child', child.parent, child.toolCallId], async () => {
        await requireRun(id);
        await watch.retry(() => children.put(kvKey(id, child.parent, child.toolCallId), JSON.stringify(child)));
      }),
    child: async (id, parent, toolCallId) => {
      await afterWrites(id, 'child', parent, toolCallId);
      return readEntry<ChildRecord>(children, kvKey(id, parent, toolCallId), 'child record', CHILD_SHAPE);
    },
    children: async (id, parent) => {
      await afterWrites(id, 'child', ...(parent === undefined ? [] : [parent]));
      const keys = await listKeys(children, parent === undefined ? `${keyToken(id)}.>` : `${kvKey(id, parent)}.*`);
      return readEntries<ChildRecord>(children, keys, 'child record', CHILD_SHAPE);
    },
    deleteRun: async (id) => {
      await writes.settled([id]);
      await events.settle();
      if ((await readEntry<RunRecord>(runs, kvKey(id), 'run record', RUN_SHAPE)) === undefined) throw unknownRun(resources, id);
      await watch.retry(() => purgeRun(resources, id));
      known.delete(id);
      records.delete(id);
      for (const key of tails.keys()) if (key.startsWith(`${kvKey(id)}.`)) tails.delete(key);
    },
  };
}

/**
 * The latest snapshot of the actor at `path` of run `runId` (its head and its history rebuilt from
 * the message chunks), or `undefined` when it never checkpointed. A worker resumes a redelivered
 * task from it.
 */
export async function loadSnapshot(resources: NatsResources, runId: RunId, path: string): Promise<AgentSnapshot | undefined> {
  const stored = await readEntry<StoredHead>(resources.heads, kvKey(runId, path), 'checkpoint head', HEAD_SHAPE);
  if (stored === undefined) return undefined;
  const { historyLength, tail, ...head } = stored;
  const chunked = tail === undefined ? historyLength : tail.from;
  const history = await readHistory(resources.messages, runId, path, chunked);
  if (tail !== undefined) history.push(...tail.messages);
  return parseAgentSnapshot(withHistory(head, history.slice(0, historyLength)));
}

/** The tail the stored head at `key` carries (for a checkpoint this store did not see the previous one of). */
async function readTail(resources: NatsResources, key: string): Promise<HistoryTail | undefined> {
  const stored = await readEntry<StoredHead>(resources.heads, key, 'checkpoint head', HEAD_SHAPE);
  if (stored === undefined) return undefined;
  const tail = stored.tail ?? { from: stored.historyLength, messages: [] };
  return extendTail(undefined, tail.from, tail.messages);
}

/** A run record as this store last wrote or read it, and its revision. */
interface KnownRecord {
  record: RunRecord;
  revision: number;
}

/**
 * Merges `patch` into the run's record and writes it back only if nobody wrote it meanwhile
 * (compare-and-set), again on the newer record otherwise. The record this store last wrote or read
 * (`known`) is tried first, with no read: while this store is the only writer, as a coordinator
 * updating its run's usage turn after turn is, an update costs one request, not two. Resolves with
 * the record written, for the next update.
 */
async function updateRecord(resources: NatsResources, id: RunId, patch: Partial<Omit<RunRecord, 'id'>>, known: KnownRecord | undefined): Promise<KnownRecord> {
  if (known !== undefined) {
    const record = { ...known.record, ...patch };
    try {
      return { record, revision: await resources.runs.update(kvKey(id), JSON.stringify(record), known.revision) };
    } catch (error) {
      if (!isWrongLastSequence(error)) throw error;
    }
  }
  for (;;) {
    const entry = await resources.runs.get(kvKey(id));
    if (entry?.operation !== 'PUT') throw unknownRun(resources, id);
    const record = { ...parseStored<RunRecord>(entry.value, `run record at key ${entry.key}`, RUN_SHAPE), ...patch };
    try {
      return { record, revision: await resources.runs.update(kvKey(id), JSON.stringify(record), entry.revision) };
    } catch (error) {
      if (!isWrongLastSequence(error)) throw error;
    }
  }
}

function unknownRun(resources: NatsResources, id: RunId): TroupeError {
  return new TroupeError(RunStoreErrorCode.UnknownRun, `unknown run ${id} (looked in NATS bucket ${resources.names.runsBucket})`);
}
