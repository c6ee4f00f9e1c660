import {
  jetstream,
  JetStreamApiCodes,
  JetStreamApiError,
  RetentionPolicy,
  StorageType,
  type JetStreamClient,
  type JetStreamManager,
  type StreamConfig,
} from '@nats-io/jetstream';
import { Kvm, type KV } from '@nats-io/kv';
import { nanos, type NatsConnection } from '@nats-io/transport-node';
import { Bucket } from './bucket.js';
import { ConnectionWatch } from './connection-watch.js';
import { EventPublisher } from '../events/event-publisher.js';
import { natsNames, type NatsNames } from './nats-names.js';
import { StoreRequests } from './store-requests.js';

/** Options of {@link openNatsResources}. */
export interface NatsResourceOptions {
  /** Keeps this deployment's subjects, streams and buckets apart from others on the same NATS. Default `default`. */
  namespace?: string;
  /** How long run events are kept. Default 7 days. */
  eventsMaxAgeMs?: number;
  /** How long dead tasks are kept. Default 30 days. */
  deadMaxAgeMs?: number;
}

/** The JetStream streams and KV buckets of one namespace, opened on one connection. */
export interface NatsResources {
  names: NatsNames;
  nc: NatsConnection;
  js: JetStreamClient;
  jsm: JetStreamManager;
  /** The publishes and reads of streams and buckets every step of a run makes, on one inbox. */
  requests: StoreRequests;
  /** Run records, at `kvKey(runId)`. */
  runs: Bucket;
  /** Actor records, for the transport. */
  actors: Bucket;
  /** Each actor's latest checkpoint head, at `kvKey(runId, path)`. */
  heads: Bucket;
  /** Appended message chunks, at `kvKey(runId, path, offset)`. */
  messages: Bucket;
  /** Delegations, at `kvKey(runId, parent, toolCallId)`. */
  children: Bucket;
  /** The connection's state, for writes that must wait out a reconnect. */
  connection: ConnectionWatch;
  /** Publishes run events without losing them across a reconnect; every run store on these resources shares it. */
  events: EventPublisher;
}

const DAY_MS = 24 * 60 * 60 * 1000;
/** Tasks carry a `Nats-Msg-Id`; events carry one so a republish after a reconnect is not stored twice. */
const DUPLICATE_WINDOW_MS = 2 * 60 * 1000;
/**
 * Error codes of the JetStream API when another process created the stream meanwhile: one of that
 * name exists with another configuration, or (two identical creates racing in nats-server 2.9)
 * its subjects overlap the one just made.
 */
// No upstream issue found for the race. Related: nats-io/nats-server#3362 (before 2.9.0 a
// standalone server answered an overlap with 10049, not 10065).
const CREATED_MEANWHILE = [10058, 10065];

/**
 * Creates (or opens) the streams and KV buckets of a namespace: the task work queue, the run
 * events, the dead tasks, and the runs/actors/heads/messages/children buckets (history 1, file
 * storage). Idempotent, and safe when several processes open the same namespace at once. A stream
 * that exists with another configuration gets the settings Troupe relies on (its subjects are
 * added to the existing ones, ages and the duplicate window are set); what cannot change in place
 * (retention, storage) is left as it is, and nothing is ever deleted. Creates no consumers.
 */
export async function openNatsResources(nc: NatsConnection, options: NatsResourceOptions = {}): Promise<NatsResources> {
  const names = natsNames(options.namespace);
  const js = jetstream(nc);
  const jsm = await js.jetstreamManager();
  const prefix = `troupe.${names.namespace}`;
  const eventsMaxAge = options.eventsMaxAgeMs ?? 7 * DAY_MS;
  await Promise.all([
    ensureStream(jsm, {
      name: names.tasksStream,
      subjects: [`${prefix}.task.>`],
      retention: RetentionPolicy.Workqueue,
      storage: StorageType.File,
      duplicate_window: nanos(DUPLICATE_WINDOW_MS),
    }),
    ensureStream(jsm, {
      name: names.eventsStream,
      subjects: [`${prefix}.run.*.events`, names.eventsFlushSubject],
      retention: RetentionPolicy.Limits,
      storage: StorageType.File,
      max_age: nanos(eventsMaxAge),
      // The server refuses a duplicate window longer than the max age.
      duplicate_window: nanos(Math.min(DUPLICATE_WINDOW_MS, eventsMaxAge)),
      allow_rollup_hdrs: true,
    }),
    ensureStream(jsm, {
      name: names.deadStream,
      subjects: [`${prefix}.dead.>`],
      retention: RetentionPolicy.Limits,
      storage: StorageType.File,
      max_age: nanos(options.deadMaxAgeMs ?? 30 * DAY_MS),
    }),
  ]);
  const kvm = new Kvm(js);
  const requests = new StoreRequests(nc);
  const [runs, actors, heads, messages, children] = await Promise.all([
    ensureBucket(kvm, names.runsBucket, requests, jsm),
    ensureBucket(kvm, names.actorsBucket, requests, jsm),
    ensureBucket(kvm, names.headsBucket, requests, jsm),
    ensureBucket(kvm, names.messagesBucket, requests, jsm),
    ensureBucket(kvm, names.childrenBucket, requests, jsm),
  ]);
  const connection = new ConnectionWatch(nc);
  const events = new EventPublisher({ nc, requests, names, connection });
  return { names, nc, js, jsm, requests, runs, actors, heads, messages, children, connection, events };
}

type WantedStream = Partial<StreamConfig> & { name: string; subjects: string[] };

async function ensureStream(jsm: JetStreamManager, wanted: WantedStream): Promise<void> {
  let existing: StreamConfig;
  try {
    existing = (await jsm.streams.info(wanted.name)).config;
  } catch (error) {
    if (!isApiError(error, [JetStreamApiCodes.StreamNotFound])) throw error;
    try {
      await jsm.streams.add(wanted);
      return;
    } catch (addError) {
      // Another process created it meanwhile, maybe with other settings: reconcile below.
      if (!isApiError(addError, CREATED_MEANWHILE)) throw addError;
      existing = (await jsm.streams.info(wanted.name)).config;
    }
  }
  const subjects = [...existing.subjects, ...wanted.subjects.filter((s) => !existing.subjects.includes(s))];
  const patch: Partial<StreamConfig> = {};
  if (subjects.length !== existing.subjects.length) patch.subjects = subjects;
  if (wanted.max_age !== undefined && existing.max_age !== wanted.max_age) patch.max_age = wanted.max_age;
  if (wanted.duplicate_window !== undefined && existing.duplicate_window !== wanted.duplicate_window) patch.duplicate_window = wanted.duplicate_window;
  if (wanted.allow_rollup_hdrs === true && existing.allow_rollup_hdrs !== true) patch.allow_rollup_hdrs = true;
  if (Object.keys(patch).length > 0) await jsm.streams.update(wanted.name, patch);
}

async function ensureBucket(kvm: Kvm, bucket: string, requests: StoreRequests, jsm: JetStreamManager): Promise<Bucket> {
  let kv: KV;
  try {
    kv = await kvm.create(bucket, { history: 1, storage: StorageType.File });
  } catch (error) {
    if (!isApiError(error, CREATED_MEANWHILE)) throw error;
    kv = await kvm.open(bucket);
  }
  return Bucket.open(bucket, kv, requests, jsm);
}

function isApiError(error: unknown, codes: readonly number[]): boolean {
  return error instanceof JetStreamApiError && codes.includes(error.code);
}
