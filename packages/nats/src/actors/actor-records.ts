import { parseAgentPath, type AgentPath, type AgentResult, type RunId } from '@troupe/core';
import type { KvEntry } from '@nats-io/kv';
import { isWrongLastSequence, type Bucket } from '../connection/bucket.js';
import type { ActorRecord } from './actor-record.js';
import { fromKeyToken, keyToken, kvKey } from '../connection/nats-names.js';

/** A record with the KV revision it was read at. */
export interface StoredActorRecord {
  path: AgentPath;
  record: ActorRecord;
  revision: number;
}

/** How long a run's result watch outlives its last waiter (a run usually asks again soon). */
const WATCH_LINGER_MS = 30_000;

interface Waiter {
  /** Only an end written after this revision counts (an earlier one belongs to an earlier run of the actor). */
  after: number;
  resolve(result: AgentResult): void;
}

interface RunWatch {
  stop(): void;
  waiters: Map<string, Waiter[]>;
  /** The last end seen of each actor, for waiters that come after it. */
  ends: Map<string, { revision: number; result: AgentResult }>;
  linger: ReturnType<typeof setTimeout> | undefined;
}

/**
 * The actors bucket: one record per actor of a distributed run (see {@link ActorRecord}). Writes
 * that read first (`change`) are compare-and-set, retried on a conflict, because a coordinator, a
 * worker and a CLI may touch the same record. `ended` resolves when an actor's record says it has
 * ended, through one KV watch per run shared by every waiter.
 */
export class ActorRecords {
  readonly #kv: Bucket;
  readonly #watches = new Map<string, RunWatch>();

  constructor(kv: Bucket) {
    this.#kv = kv;
  }

  async get(runId: RunId, path: AgentPath): Promise<StoredActorRecord | undefined> {
    const entry = await this.#kv.get(kvKey(runId, path));
    return entry === null || entry.operation !== 'PUT' ? undefined : { path, record: entry.json<ActorRecord>(), revision: entry.revision };
  }

  /** Writes `record` whatever was there. */
  async put(runId: RunId, path: AgentPath, record: ActorRecord): Promise<number> {
    return this.#kv.put(kvKey(runId, path), JSON.stringify(record));
  }

  /** Records that the actor ended with `result` (`actor` says what it is, and the trace it keeps), whatever was there. */
  async end(
    runId: RunId,
    path: AgentPath,
    actor: Pick<ActorRecord, 'agent' | 'depth' | 'fromQueue' | 'graph' | 'trace'>,
    result: AgentResult,
  ): Promise<number> {
    const record: ActorRecord = { agent: actor.agent, depth: actor.depth, status: 'ended', result, updatedAt: Date.now() };
    if (actor.fromQueue === true) record.fromQueue = true;
    if (actor.graph !== undefined) record.graph = actor.graph;
    // Kept for a prompt that wakes it again, in the same trace.
    if (actor.trace !== undefined) record.trace = actor.trace;
    return this.put(runId, path, record);
  }

  /**
   * The claim's write: `record` only where the actor has none (`over` is `absent`) or its record is
   * still at revision `over`: of several processes writing at once, one wins. Resolves with the
   * revision written, or undefined when the record had moved on.
   */
  async claim(runId: RunId, path: AgentPath, record: ActorRecord, over: number | 'absent'): Promise<number | undefined> {
    return this.#writeOver(kvKey(runId, path), record, over);
  }

  /** Writes `record` only where the actor has none; undefined when it has one. */
  async createIfAbsent(runId: RunId, path: AgentPath, record: ActorRecord): Promise<number | undefined> {
    return this.#writeOver(kvKey(runId, path), record, 'absent');
  }

  /**
   * Applies `change` to the current record (undefined when there is none) and writes the outcome
   * unless `change` returns undefined; retried on a concurrent write. Resolves with what was written.
   */
  async change(
    runId: RunId,
    path: AgentPath,
    change: (current: StoredActorRecord | undefined) => ActorRecord | undefined,
  ): Promise<StoredActorRecord | undefined> {
    const key = kvKey(runId, path);
    for (let attempt = 0; ; attempt++) {
      const current = await this.get(runId, path);
      const next = change(current);
      if (next === undefined) return undefined;
      try {
        const revision =
          current === undefined ? await this.#kv.create(key, JSON.stringify(next)) : await this.#kv.update(key, JSON.stringify(next), current.revision);
        return { path, record: next, revision };
      } catch (error) {
        if (!isWrongLastSequence(error) || attempt >= 20) throw error;
      }
    }
  }

  /** Every actor record of `runId`. */
  async list(runId: RunId): Promise<StoredActorRecord[]> {
    const keys = await this.#kv.keys(`${keyToken(runId)}.*`);
    const records: StoredActorRecord[] = [];
    for (const key of keys) {
      const path = parseAgentPath(fromKeyToken(key.slice(key.indexOf('.') + 1)));
      const found = await this.get(runId, path);
      if (found !== undefined) records.push(found);
    }
    return records;
  }

  /** Resolves with the actor's result once its record, written after revision `after`, says it has ended. */
  ended(runId: RunId, path: AgentPath, after: number): Promise<AgentResult> {
    return new Promise((resolve) => {
      const watch = this.#watch(runId);
      const end = watch.ends.get(path);
      if (end !== undefined && end.revision > after) {
        resolve(end.result);
        return;
      }
      if (watch.linger !== undefined) clearTimeout(watch.linger);
      watch.linger = undefined;
      const waiters = watch.waiters.get(path) ?? [];
      waiters.push({ after, resolve });
      watch.waiters.set(path, waiters);
    });
  }

  /** Stops every watch. */
  close(): void {
    for (const watch of this.#watches.values()) {
      if (watch.linger !== undefined) clearTimeout(watch.linger);
      watch.stop();
    }
    this.#watches.clear();
  }

  /** Writes `record` at `key` where absent or at revision `over`; undefined when the record moved on. */
  async #writeOver(key: string, record: ActorRecord, over: number | 'absent'): Promise<number | undefined> {
    try {
      return over === 'absent' ? await this.#kv.create(key, JSON.stringify(record)) : await this.#kv.update(key, JSON.stringify(record), over);
    } catch (error) {
      if (isWrongLastSequence(error)) return undefined;
      throw error;
    }
  }

  #watch(runId: RunId): RunWatch {
    const existing = this.#watches.get(runId);
    if (existing !== undefined) return existing;
    let stopped = false;
    let iterator: { stop(): void } | undefined;
    const watch: RunWatch = {
      waiters: new Map(),
      ends: new Map(),
      linger: undefined,
      stop: () => {
        stopped = true;
        iterator?.stop();
      },
    };
    this.#watches.set(runId, watch);
    void (async () => {
      const entries = await this.#kv.watch({ key: `${keyToken(runId)}.*` });
      iterator = entries;
      if (stopped) entries.stop();
      for await (const entry of entries) this.#onEntry(runId, watch, entry);
    })().catch(() => undefined);
    return watch;
  }

  #onEntry(runId: RunId, watch: RunWatch, entry: KvEntry): void {
    if (entry.operation !== 'PUT') return;
    const record = entry.json<ActorRecord>();
    if (record.status !== 'ended' || record.result === undefined) return;
    const path = fromKeyToken(entry.key.slice(entry.key.indexOf('.') + 1));
    const result = record.result;
    watch.ends.set(path, { revision: entry.revision, result });
    const waiters = watch.waiters.get(path);
    if (waiters === undefined) return;
    const remaining: Waiter[] = [];
    for (const waiter of waiters) {
      if (entry.revision > waiter.after) waiter.resolve(result);
      else remaining.push(waiter);
    }
    if (remaining.length > 0) watch.waiters.set(path, remaining);
    else watch.waiters.delete(path);
    if (watch.waiters.size === 0) {
      watch.linger = setTimeout(() => {
        if (watch.waiters.size > 0) return;
        watch.stop();
        this.#watches.delete(runId);
      }, WATCH_LINGER_MS);
      watch.linger.unref();
    }
  }
}
