import { JetStreamApiCodes, JetStreamApiError, type JetStreamManager } from '@nats-io/jetstream';
import type { KV, KvWatchEntry, KvWatchOptions } from '@nats-io/kv';
import type { Msg, QueuedIterator } from '@nats-io/transport-node';
import type { StoreRequests } from './store-requests.js';

/** What a key holds: its last value and the revision it was written at (a `DEL` or `PURGE` marker once deleted). */
export interface BucketEntry {
  readonly key: string;
  readonly value: Uint8Array;
  readonly revision: number;
  readonly operation: 'PUT' | 'DEL' | 'PURGE';
  json<T>(): T;
  string(): string;
}

/** The header a KV delete or purge marker carries (`kvOperationHdr` in nats.js kv/src/kv.ts, not exported even from `@nats-io/kv/internal`). */
const OPERATION_HEADER = 'KV-Operation';
const decoder = new TextDecoder();

/**
 * A KV bucket of the deployment, read and written key by key through {@link StoreRequests} (the
 * requests every turn of a distributed run makes), with the semantics of nats.js's KV: `put`
 * writes whatever was there and resolves with the new revision, `create` only where the key is
 * absent (or deleted), `update` only over the given revision (both reject with a
 * `JetStreamApiError` of code 10071, "wrong last sequence", otherwise), `get` resolves with the
 * key's last entry or null. Keys are listed from the stream's subjects (one request); watching goes
 * through nats.js's KV. A bucket whose stream does not allow direct gets, or that mirrors another,
 * is read and written by nats.js's KV alone.
 */
export class Bucket {
  readonly name: string;
  readonly #kv: KV;
  readonly #requests: StoreRequests | undefined;
  readonly #stream: string;
  readonly #jsm: JetStreamManager;

  private constructor(name: string, kv: KV, requests: StoreRequests | undefined, jsm: JetStreamManager) {
    this.name = name;
    this.#kv = kv;
    this.#requests = requests;
    this.#stream = `KV_${name}`;
    this.#jsm = jsm;
  }

  /** Wraps nats.js's handle of bucket `name`, using `requests` where the bucket allows it. */
  static async open(name: string, kv: KV, requests: StoreRequests, jsm: JetStreamManager): Promise<Bucket> {
    const { config } = (await kv.status()).streamInfo;
    const plain = config.allow_direct === true && config.mirror === undefined;
    return new Bucket(name, kv, plain ? requests : undefined, jsm);
  }

  async get(key: string): Promise<BucketEntry | null> {
    if (this.#requests === undefined) return this.#kv.get(key);
    const msg = await this.#requests.lastMessage(this.#stream, this.#subject(key));
    return msg === null ? null : storedEntry(key, msg);
  }

  async put(key: string, value: Uint8Array | string): Promise<number> {
    if (this.#requests === undefined) return this.#kv.put(key, value);
    return (await this.#requests.publish(this.#subject(key), value)).seq;
  }

  /** Writes `value` only if `key` has none (or was deleted). */
  async create(key: string, value: Uint8Array | string): Promise<number> {
    if (this.#requests === undefined) return this.#kv.create(key, value);
    try {
      return (await this.#requests.publish(this.#subject(key), value, { expectedLastSubjectSequence: 0 })).seq;
    } catch (error) {
      if (!isWrongLastSequence(error)) throw error;
      // A deleted key takes a create over its delete marker, as nats.js's KV does.
      const current = await this.get(key);
      if (current === null || current.operation === 'PUT') throw error;
      return this.update(key, value, current.revision);
    }
  }

  /** Writes `value` only if `key` is still at `revision`. */
  async update(key: string, value: Uint8Array | string, revision: number): Promise<number> {
    if (this.#requests === undefined) return this.#kv.update(key, value, revision);
    return (await this.#requests.publish(this.#subject(key), value, { expectedLastSubjectSequence: revision })).seq;
  }

  /**
   * The keys matching `filter` (NATS wildcards) that have been written, deleted ones included (a
   * `get` says so). Read from the stream's subjects in one request (paged by nats.js for very
   * many), not with nats.js's `kv.keys()`: that lists through a push consumer that waits for a
   * message with no pending behind it, and hung for 30 s and more when the bucket was written
   * while it listed (a run record updated as its usage grows). No nats.js issue found; the code is
   * `Bucket.keys` in nats.js kv/src/kv.ts, and nats.go fixed the same race (nats-io/nats.go#1884).
   */
  async keys(filter = '>'): Promise<string[]> {
    const info = await this.#jsm.streams.info(this.#stream, { subjects_filter: this.#subject(filter) });
    const prefix = this.#subject('');
    return Object.keys(info.state.subjects ?? {}).map((subject) => subject.slice(prefix.length));
  }

  watch(options?: KvWatchOptions): Promise<QueuedIterator<KvWatchEntry>> {
    return this.#kv.watch(options);
  }

  #subject(key: string): string {
    return `$KV.${this.name}.${key}`;
  }
}

/** Whether `error` is JetStream refusing a write because the subject has moved on. */
export function isWrongLastSequence(error: unknown): boolean {
  return error instanceof JetStreamApiError && error.code === JetStreamApiCodes.StreamWrongLastSequence;
}

function storedEntry(key: string, msg: Msg): BucketEntry {
  const operation = msg.headers?.get(OPERATION_HEADER);
  return {
    key,
    value: msg.data,
    revision: Number(msg.headers?.get('Nats-Sequence')),
    operation: operation === 'DEL' || operation === 'PURGE' ? operation : 'PUT',
    json: <T>() => JSON.parse(decoder.decode(msg.data)) as T,
    string: () => decoder.decode(msg.data),
  };
}
