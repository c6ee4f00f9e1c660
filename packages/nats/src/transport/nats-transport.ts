import { randomUUID } from 'node:crypto';
import { TroupeError, withHistory, type AgentEvent, type AgentPath, type AgentResult, type RunId } from '@troupe/core';
import type { Observable } from 'rxjs';
import {
  TransportErrorCode,
  type ActorFactory,
  type ControlCommand,
  type Instrumentation,
  type RunStore,
  type SpawnRequest,
  type Transport,
} from '@troupe/runtime';
import type { ActorRecord } from '../actors/actor-record.js';
import { ActorRecords } from '../actors/actor-records.js';
import { ControlLine } from '../actors/control-line.js';
import { RemoteResults } from '../actors/remote-results.js';
import { RunEventFeed } from '../events/run-event-feed.js';
import { endLost, strandedActors } from '../actors/stranded-actors.js';
import { UnhostedControl } from '../actors/unhosted-control.js';
import type { NatsResources } from '../connection/nats-resources.js';
import type { Task } from '../tasks/task.js';
import { TaskQueue } from '../tasks/task-queue.js';
import { traceField } from '../tasks/trace-headers.js';
import { ActorHosting } from './actor-hosting.js';

/** Where an agent's actors run: in the process that spawns them, or on workers. */
export type Placement = 'local' | 'remote';

/** Options of {@link createNatsTransport}. */
export interface NatsTransportOptions {
  resources: NatsResources;
  /** The run store over the same NATS (`createNatsRunStore`): events and checkpoints go there. */
  store: RunStore;
  /** Builds the actors this process hosts. */
  factory: ActorFactory;
  /**
   * The fingerprint of the graph (`graphHash`): tasks go to that graph's subject, stamped with it.
   * Empty in a process that knows no graph (it queues no task but to wake an actor whose record
   * names its graph).
   */
  graphHash: string;
  /** The command that starts a worker for this graph, shown while a task waits for one (`troupe worker team.yaml --nats …`). */
  workerCommand?: string;
  /** Where each agent's actors run. */
  placement(agent: string): Placement;
  /** The most actors of an agent this process runs at once. */
  concurrency?: (agent: string) => number | undefined;
  /** Names this process in actor records. Default: a random id. */
  hostId?: string;
  /** How long a control message waits for the actor's host to answer. Default 5000 ms. */
  controlTimeoutMs?: number;
  /** How long control keeps trying while an actor is between hosts (queued or redelivered). Default 10 s. */
  handoverTimeoutMs?: number;
  /** Failures of background work (a record that could not be written). */
  onError?: (error: unknown) => void;
  /**
   * Follows the actors this process hosts (the runtime's, through `TransportParts`; a worker's own).
   * Whatever it is, each actor's `trace` travels with its task (headers) and in its record.
   */
  instrumentation?: Instrumentation;
}

/** Creates a {@link NatsTransport}. */
export function createNatsTransport(options: NatsTransportOptions): NatsTransport {
  return new NatsTransport(options);
}

/**
 * The distributed transport. A `remote` actor becomes a task on the agent's work-queue subject,
 * taken by whichever worker is free; a `local` one is hosted here. Wherever an actor lives, its
 * events go to the run's events subject (kept in a stream), its checkpoints to KV, and its record
 * (running → waiting → ended, with its result) to the actors bucket; a child on the queue has no
 * record until a worker claims it (its child record says it was spawned), an entry on the queue
 * is recorded `queued`. So:
 * - `events(runId)` follows the run's subject, from any process;
 * - `result` answers from the record, at once or when it says the actor has ended;
 * - `control` asks the actor's host over request/reply; when no process hosts it (it was put
 *   aside waiting for a user, or its host died), a reply, an approval or a new prompt wakes it
 *   as a task carrying the command, restored from its snapshot on any worker, and an abort is
 *   noted in its record for whoever claims it next.
 */
export class NatsTransport implements Transport {
  /** Every actor's record keeps its outcome. */
  readonly keepsResults = true;
  readonly hostId: string;
  readonly #options: NatsTransportOptions;
  readonly #hosting: ActorHosting;
  readonly #records: ActorRecords;
  /** Actors found stranded for a resume, not restored here yet; true when an abort awaits them. */
  readonly #stranded = new Map<string, boolean>();
  readonly #feed: RunEventFeed;
  readonly #line: ControlLine;
  readonly #remote: RemoteResults;
  readonly #queue: TaskQueue;
  #closed = false;

  constructor(options: NatsTransportOptions) {
    this.#options = options;
    this.hostId = options.hostId ?? `host-${randomUUID().slice(0, 8)}`;
    this.#records = new ActorRecords(options.resources.actors);
    this.#queue = new TaskQueue({ ...options, records: this.#records, graph: options.graphHash });
    this.#line = new ControlLine({
      resources: options.resources,
      unhosted: new UnhostedControl(this.#records, options.store, (task, id, graph) => this.#queue.publish(task, id, graph)),
      ...(options.controlTimeoutMs === undefined ? {} : { controlTimeoutMs: options.controlTimeoutMs }),
      ...(options.handoverTimeoutMs === undefined ? {} : { handoverTimeoutMs: options.handoverTimeoutMs }),
    });
    this.#feed = new RunEventFeed(options.resources);
    this.#remote = new RemoteResults(this.#records, options.store, (runId) => this.#feed.follow(runId));
    this.#hosting = new ActorHosting({
      hostId: this.hostId,
      recordGraph: this.#queue.recordGraph,
      records: this.#records,
      line: this.#line,
      store: options.store,
      factory: options.factory,
      transport: this,
      onEvent: (event) => this.#feed.local(event),
      ...(options.concurrency === undefined ? {} : { concurrency: options.concurrency }),
      ...(options.onError === undefined ? {} : { onError: options.onError }),
      ...(options.instrumentation === undefined ? {} : { instrumentation: options.instrumentation }),
    });
  }

  /** The actor records of the transport's namespace. */
  get records(): ActorRecords {
    return this.#records;
  }

  /** What this process does for the actors it hosts (a worker claims and hosts its tasks' actors through it). */
  get hosting(): ActorHosting {
    return this.#hosting;
  }

  /** How many actors this process hosts. */
  get hosted(): number {
    return this.#hosting.size;
  }

  /**
   * A `local` actor is hosted here; a `remote` one becomes a task. A remote actor restored from
   * `snapshot` has the snapshot stored as its latest checkpoint first: the worker that takes the
   * task restores it from there. A fresh remote child gets no record: the worker that claims it
   * writes the first (its child record, which the delegation wrote, says it exists meanwhile).
   * The request's `trace` goes with the task (as headers) and into the records written here; an
   * actor restored without one keeps the trace its record names.
   */
  async spawn(spawned: SpawnRequest): Promise<void> {
    this.#assertOpen();
    const request = spawned.snapshot !== undefined && spawned.trace === undefined ? await this.#withRecordedTrace(spawned) : spawned;
    const { runId, path, agent, depth, snapshot } = request;
    if (this.#options.placement(agent) === 'local') {
      // Hosted here: its record must say so before whoever spawned it asks elsewhere for its result.
      const actor = this.#hosting.host(request);
      const key = `${runId}\n${path}`;
      if (this.#stranded.get(key) === true) this.#hosting.deliver(actor, { type: 'abort' });
      this.#stranded.delete(key);
      await this.#hosting.written(actor);
      return;
    }
    const task: Task = { runId, path, agent, depth, ...traceField(request.trace) };
    if (snapshot !== undefined) {
      const revision = await this.#records.put(runId, path, { ...queuedRecord(task), ...this.#queue.recordGraph });
      await this.#options.store.saveCheckpoint(runId, { head: withHistory(snapshot, []), from: 0, added: snapshot.context.messages });
      await this.#queue.publish({ ...task, resume: true }, `${runId}:${path}:${revision}`);
      return;
    }
    if (request.input !== undefined) task.input = request.input;
    if (request.sessionId !== undefined) task.sessionId = request.sessionId;
    const spawning = this.#remote.spawning(runId, path);
    try {
      // An entry has no child record to say it exists: it is recorded queued (once a run).
      const queued = depth === 0 ? this.#records.put(runId, path, { ...queuedRecord(task), ...this.#queue.recordGraph }) : Promise.resolve(0);
      const [revision] = await Promise.all([queued, this.#queue.publish(task, `${runId}:${path}`)]);
      spawning.spawned(revision);
    } catch (error) {
      spawning.cancel();
      throw error;
    }
  }

  async control(runId: RunId, path: AgentPath, command: ControlCommand): Promise<void> {
    this.#assertOpen();
    if (this.#hosting.get(runId, path) !== undefined) {
      this.#hosting.control(runId, path, command);
      return;
    }
    await this.#line.send(runId, path, command);
  }

  /**
   * A local actor's result once its events are on the run's subject too (whoever follows the run
   * has seen them all). A remote one's from its `agent_end` event or its record, whichever comes
   * first (the record also covers an end that came before the call). A remote one claimed from the
   * queue by this very process counts as remote: it may be set aside or handed over, and woken as
   * another actor, whose end its hosted agent would never see.
   */
  async result(runId: RunId, path: AgentPath): Promise<AgentResult> {
    const hosted = this.#hosting.get(runId, path);
    const local = hosted !== undefined && this.#options.placement(hosted.request.agent) === 'local' ? this.#hosting.result(runId, path) : undefined;
    if (local !== undefined) {
      const result = await local;
      await this.#options.store.flush(runId);
      return result;
    }
    if (this.#stranded.delete(`${runId}\n${path}`)) return endLost(this.#records, runId, path);
    return this.#remote.of(runId, path);
  }

  events(runId: RunId): Observable<AgentEvent> {
    return this.#feed.follow(runId);
  }

  /**
   * The run's actors hosted by a process that is gone, and that no task brings back (see
   * `strandedActors`): whoever resumes the run restores them. Each is asked over its control
   * subject whether a process still hosts it. One left out of the resume (it never
   * checkpointed) is ended as lost when its result is asked for, so its parent starts it again.
   */
  async stranded(runId: RunId): Promise<ReadonlySet<AgentPath>> {
    const found = await strandedActors(runId, await this.#records.list(runId), (path) => this.#line.hostedOrSilent(runId, path));
    for (const path of found.paths) this.#stranded.set(`${runId}\n${path}`, found.aborted.has(path));
    return found.paths;
  }

  async close(): Promise<void> {
    if (this.#closed) return;
    this.#closed = true;
    const written = this.#hosting.close();
    this.#records.close();
    this.#remote.close();
    this.#feed.close();
    await written;
  }

  /** Puts `task` on its agent's queue for this graph's workers, de-duplicated by `id`. */
  async publish(task: Task, id: string): Promise<void> {
    return this.#queue.publish(task, id);
  }

  /**
   * While the actor at `path` waits on the task queue, reports what it waits for (no live worker
   * hosts its agent: the command that starts one) and then who claimed it (see `watchUntilClaimed`; the
   * name of this method is the runtime's `Transport.watchUntilTaken`).
   * A `local` actor is hosted at once: nothing to report.
   */
  watchUntilTaken(request: Pick<SpawnRequest, 'runId' | 'path' | 'agent'>, report: (text: string) => void): () => void {
    if (this.#closed || this.#options.placement(request.agent) === 'local') return () => undefined;
    return this.#queue.watchUntilClaimed(request.runId, request.path, request.agent, report);
  }

  /**
   * `request` (restoring an actor, with no trace of its own) in the trace its record keeps: a
   * handover or a resume that knows no trace does not cut the actor off from it.
   */
  async #withRecordedTrace(request: SpawnRequest): Promise<SpawnRequest> {
    const trace = (await this.#records.get(request.runId, request.path))?.record.trace;
    return trace === undefined ? request : { ...request, trace };
  }

  #assertOpen(): void {
    if (this.#closed) throw new TroupeError(TransportErrorCode.Closed, 'the transport is closed');
  }
}

/** The `queued` record of the actor `task` puts on the queue (an entry, or one restored), in the task's trace. */
function queuedRecord(task: Task): ActorRecord {
  return { agent: task.agent, depth: task.depth, status: 'queued', ...traceField(task.trace), updatedAt: Date.now() };
}
