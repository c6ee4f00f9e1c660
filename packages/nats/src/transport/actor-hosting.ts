import { TroupeError, type AgentEvent, type AgentPath, type AgentResult, type RunId } from '@troupe/core';
import {
  ActorHost,
  TransportErrorCode,
  type ActorFactory,
  type ControlCommand,
  type HostedActor,
  type Instrumentation,
  type RunStore,
  type SpawnRequest,
  type Transport,
} from '@troupe/runtime';
import type { ActorRecord } from '../actors/actor-record.js';
import type { ActorRecords } from '../actors/actor-records.js';
import type { ControlLine, ControlListener } from '../actors/control-line.js';
import { HostedEntry, type HostingHooks } from './hosted-entry.js';

/** Options of {@link ActorHosting}. */
export interface ActorHostingOptions {
  /** Names this process in the records of the actors it hosts. */
  hostId: string;
  /** The `graph` field of the records it writes (see `TaskQueue.recordGraph`). */
  recordGraph: Pick<ActorRecord, 'graph'>;
  records: ActorRecords;
  line: ControlLine;
  /** Where the hosted actors' events and checkpoints go. */
  store: RunStore;
  /** Builds the actors hosted here. */
  factory: ActorFactory;
  /** What the hosted actors' tools spawn and reach other actors through. */
  transport: Transport;
  /** The most actors of an agent hosted here at once. */
  concurrency?: (agent: string) => number | undefined;
  /** Every event of a hosted actor, once the store has it. */
  onEvent(event: AgentEvent): void;
  /** Failures of background work (a record that could not be written). */
  onError?: (error: unknown) => void;
  /** Follows each actor hosted here, in the context of its request's `trace` (given to the `ActorHost`). */
  instrumentation?: Instrumentation;
}

/** A task's actor this process won the claim on (see {@link ActorHosting.claim}). */
export interface Claim {
  /** Hosts the actor here (its record already says so); `hooks` learn of its wait and its end. */
  host(request: SpawnRequest, hooks?: HostingHooks): HostedActor;
  /** Gives the actor up without hosting it (its record still names this process until rewritten). */
  abandon(): void;
}

/**
 * The hosting role of a process in a distributed run: what it does for the actors it hosts. It
 * claims a task's actor by its record, hosts actors (answering each one's control subject, keeping
 * its record — running, waiting, ended — in order and after its checkpoints), lets them go, and
 * sets aside one that waits for a user. One {@link HostedEntry} per hosted actor holds what it
 * keeps about it. `NatsTransport` hosts its `local` actors through it; a worker, the actors of the
 * tasks it takes.
 */
export class ActorHosting {
  readonly hostId: string;
  readonly #options: ActorHostingOptions;
  readonly #host: ActorHost;
  readonly #entries = new Map<HostedActor, HostedEntry>();
  #closed = false;

  constructor(options: ActorHostingOptions) {
    this.#options = options;
    this.hostId = options.hostId;
    this.#host = new ActorHost({
      factory: options.factory,
      store: options.store,
      onEvent: (event, actor) => this.#onEvent(event, actor),
      ...(options.concurrency === undefined ? {} : { concurrency: options.concurrency }),
      ...(options.onError === undefined ? {} : { onError: options.onError }),
      ...(options.instrumentation === undefined ? {} : { instrumentation: options.instrumentation }),
    });
  }

  /** How many actors this process hosts. */
  get size(): number {
    return this.#host.size;
  }

  /** The actor at `path` when it is hosted here. */
  get(runId: RunId, path: AgentPath): HostedActor | undefined {
    return this.#host.get(runId, path);
  }

  /** The outcome of the actor at `path` when it is hosted here. */
  result(runId: RunId, path: AgentPath): Promise<AgentResult> | undefined {
    return this.#host.result(runId, path);
  }

  /**
   * Claims the actor of a task taken from the queue: listens on its control subject first, then
   * writes its record `running` here, task-bound (`fromQueue`), only where it has none (`over` is `absent`: an
   * unclaimed child) or where its record is still at the revision `over` read. Of several
   * workers handed one task at once (nats-server 2.9 can do that), one wins; the others find its
   * record, and its host answers on the control subject from the moment the record exists. An
   * abort the record noted (`abortRequested`) stays noted until it is delivered. The actor's
   * `trace` goes into the record with the claim (no write of its own), for whoever wakes it later.
   * Resolves undefined, listening no more, when the record had moved on.
   */
  async claim(
    actor: Pick<SpawnRequest, 'runId' | 'path' | 'agent' | 'depth' | 'trace'>,
    over: number | 'absent',
    abortRequested = false,
  ): Promise<Claim | undefined> {
    this.#assertOpen();
    const { runId, path, agent, depth } = actor;
    const listener = this.#options.line.listen(runId, path);
    const record: ActorRecord = { agent, depth, status: 'running', host: this.hostId, fromQueue: true, ...this.#options.recordGraph, updatedAt: Date.now() };
    if (actor.trace !== undefined) record.trace = actor.trace;
    if (abortRequested) record.abortRequested = true;
    let revision: number | undefined;
    try {
      revision = await this.#options.records.claim(runId, path, record, over);
    } finally {
      if (revision === undefined) listener.close();
    }
    if (revision === undefined) return undefined;
    return { host: (request, hooks = {}) => this.#hostHere(request, hooks, listener), abandon: () => listener.close() };
  }

  /**
   * Hosts the actor `request` asks for in this process, recording it `running` here: it answers its
   * control subject and keeps its record. The transport hosts its `local` actors this way, and a
   * worker the local children of a parent it restores.
   */
  host(request: SpawnRequest): HostedActor {
    return this.#hostHere(request, {});
  }

  /** Settles once the record writes of `actor` queued so far have settled. */
  async written(actor: HostedActor): Promise<void> {
    await this.#entries.get(actor)?.written;
  }

  /** Stops hosting `actor` here (its checkpoint and record stay the truth; a task wakes it again). */
  release(actor: HostedActor): void {
    this.#entries.get(actor)?.listener.close();
    this.#entries.delete(actor);
    this.#host.release(actor.request.runId, actor.request.path);
  }

  /**
   * Sets aside an actor hosted here that waits for a user (one restored already waiting, which
   * emits no new wait): records what it waits for, then stops hosting it. Resolves false, hosting
   * it still, when an answer came while the record was written and the actor went on.
   */
  async setAside(actor: HostedActor): Promise<boolean> {
    const entry = this.#entries.get(actor);
    if (entry !== undefined) await this.#record(entry, () => this.#writeWaiting(entry, actor));
    if (actor.agent.state !== 'waiting_user') return false;
    this.release(actor);
    return true;
  }

  /** Applies `command` to an actor hosted here. */
  deliver(actor: HostedActor, command: ControlCommand): void {
    this.#host.control(actor.request.runId, actor.request.path, command);
  }

  /** Applies `command` to the actor at `path` hosted here; rejects with `unknown_actor` when it is not. */
  control(runId: RunId, path: AgentPath, command: ControlCommand): void {
    this.#host.control(runId, path, command);
  }

  /**
   * Whether a live process (this one included) hosts the actor, or is settling its claim on it:
   * it answers on the actor's control subject within `timeoutMs`. Silence counts as no host.
   */
  async answersFor(runId: RunId, path: AgentPath, timeoutMs: number): Promise<boolean> {
    return this.#host.get(runId, path) !== undefined || this.#options.line.answers(runId, path, timeoutMs);
  }

  /** Stops answering for every actor and disposes them; resolves once their record writes so far have settled. */
  close(): Promise<unknown> {
    this.#closed = true;
    const entries = [...this.#entries.values()];
    for (const entry of entries) entry.listener.close();
    this.#host.close();
    return Promise.allSettled(entries.map((entry) => entry.written));
  }

  /**
   * Hosts `request` here. A claimed actor (`claimed` is the listener of its claim) is recorded
   * already, task-bound; any other gets its record `running` here at once (whoever spawned it may ask elsewhere
   * for its result).
   */
  #hostHere(request: SpawnRequest, hooks: HostingHooks, claimed?: ControlListener): HostedActor {
    this.#assertOpen();
    const listener = claimed ?? this.#options.line.listen(request.runId, request.path);
    let actor: HostedActor;
    try {
      actor = this.#host.host(request, this.#options.transport);
    } catch (error) {
      listener.close();
      throw error;
    }
    // Before its control commands apply: one that ends it at once finds its entry. (While it is
    // built it emits no more than its start: nothing its record follows.)
    const entry = new HostedEntry(request, listener, hooks, claimed !== undefined);
    this.#entries.set(actor, entry);
    listener.attach((command) => this.#host.control(request.runId, request.path, command));
    if (claimed === undefined) {
      entry.chain(
        () =>
          this.#options.records.put(request.runId, request.path, {
            ...entry.base(this.#options.recordGraph),
            status: 'running',
            host: this.hostId,
            updatedAt: Date.now(),
          }),
        this.#options.onError,
      );
    }
    return actor;
  }

  #onEvent(event: AgentEvent, actor: HostedActor): void {
    this.#options.onEvent(event);
    const entry = this.#entries.get(actor);
    if (entry === undefined) return;
    const { runId, path } = actor.request;
    if (event.type === 'state' && event.state === 'waiting_user') {
      entry.waiting = true;
      entry.waits += 1;
      const wait = entry.waits;
      void this.#record(entry, async () => {
        await this.#writeWaiting(entry, actor);
        // An answer that came while the record was written (the control subject is still
        // listened on) has taken the actor on: it is not set aside, it goes on here.
        if (entry.waiting && entry.waits === wait && actor.agent.state === 'waiting_user') entry.hooks.onWaiting?.(actor);
      });
    } else if (event.type === 'state' && (event.state === 'thinking' || event.state === 'tool_executing') && entry.waiting) {
      entry.waiting = false;
      void this.#record(entry, () =>
        this.#options.records.put(runId, path, { ...entry.base(this.#options.recordGraph), status: 'running', host: this.hostId, updatedAt: Date.now() }),
      );
    } else if (event.type === 'agent_end') {
      entry.waiting = false;
      // Whoever waits for the result need not wait for the checkpoint too: the record goes out at
      // once (after the actor's earlier record writes), the task is settled once both are stored.
      const ended = entry.afterWrites(() => this.#options.records.end(runId, path, entry.base(this.#options.recordGraph), event.result));
      void this.#record(entry, async () => {
        await ended;
        entry.hooks.onEnded?.(actor, event.result);
      });
    }
  }

  /** Writes an actor's record once its checkpoints so far are stored, after its earlier record writes. */
  #record(entry: HostedEntry, write: () => Promise<unknown>): Promise<unknown> {
    const { runId, path } = entry.request;
    return entry.chain(async () => {
      await this.#host.settled(runId, path);
      await write();
    }, this.#options.onError);
  }

  async #writeWaiting(entry: HostedEntry, actor: HostedActor): Promise<void> {
    const pending = actor.agent.pending;
    const record: ActorRecord = { ...entry.base(this.#options.recordGraph), status: 'waiting', host: this.hostId, updatedAt: Date.now() };
    if (pending !== undefined) record.pending = { ...pending };
    await this.#options.records.put(actor.request.runId, actor.request.path, record);
  }

  #assertOpen(): void {
    if (this.#closed) throw new TroupeError(TransportErrorCode.Closed, 'the transport is closed');
  }
}
