import { Agent, TroupeError, type AgentEvent, type AgentOptions, type AgentPath, type AgentResult, type RunId } from '@troupe/core';
import type { RunStore } from '../store/run-store.js';
import type { Instrumentation } from './instrumentation.js';
import type { ControlCommand, HostedActor, SpawnRequest, Transport } from './transport.js';
import type { HibernationPolicy } from './hibernation.js';
import { newOutcome, OutcomeWaiters, tellWhenSettled, type OutcomeWaiter } from './outcome.js';
import { Bedtimes } from './bedtimes.js';
import { DormantActor, DormantActors } from './dormant-actors.js';
import { CheckpointWriter } from './checkpoint-writer.js';
import { PathMap } from './path-map.js';
import { RetiredTraces } from './retired-traces.js';
import type { ActorSlot } from './actor-slot.js';
import { TransportErrorCode } from '../runtime-error-codes.js';

/** What an actor's `saved` and `started` are until there is something to wait for: one promise for all. */
const SETTLED = Promise.resolve();

/** Builds the options of the agent a spawn request asks for (its tools bound to `transport`). */
export type ActorFactory = (request: SpawnRequest, transport: Transport) => AgentOptions;

/** Options of {@link ActorHost}. */
export interface ActorHostOptions {
  factory: ActorFactory;
  /** Where events and checkpoints go. */
  store: RunStore;
  /** The most actors of an agent this host runs at once (`concurrency` in the graph file); others wait their turn. */
  concurrency?: (agent: string) => number | undefined;
  /** Called with every event of every hosted actor, after the store has it. */
  onEvent?: (event: AgentEvent, actor: HostedActor) => void;
  /** Called with failures of background work (a store write that failed). */
  onError?: (error: unknown) => void;
  /** Follows each hosted actor, for tracing and metrics. */
  instrumentation?: Instrumentation;
  /** When actors waiting for a user leave memory; without it they stay. */
  hibernation?: HibernationPolicy;
  /** Called with each actor as it is hosted (fresh, restored or woken: a new agent each time), before its run starts. */
  onHost?: (actor: HostedActor) => void;
}

/**
 * Hosts agent actors in this process, for every transport: builds each from its spawn request
 * (fresh, or restored from a snapshot), sends its events to the store, and checkpoints it when it
 * starts executing tools, at each turn boundary, when it waits for a user, and when it ends —
 * once per tick however many reasons arrive. When an actor starts waiting, every live actor of its
 * run is checkpointed too, so a parent blocked on a waiting child can be resumed elsewhere. A tool
 * call not safe to repeat starts once the checkpoint holding it is stored (`checkpointed`), so a
 * restore never runs one again unknowingly.
 *
 * An agent with a `concurrency` limit runs at most that many actors at once here; further fresh
 * actors are built at once (so they can be addressed) but prompted when a slot frees. An actor
 * waiting for a user gives its slot back.
 *
 * With a {@link HibernationPolicy}, an actor that waits for a user long enough (or beyond the
 * most that may wait awake, see {@link Bedtimes}) is dropped from memory once its checkpoint is
 * stored; `wake` restores it from the store, and whoever waits for its outcome (`result`,
 * `whenEnded`) is told once the actor woken in its place ends.
 */
export class ActorHost {
  readonly #options: ActorHostOptions;
  readonly #checkpoints: CheckpointWriter;
  readonly #runs = new Map<string, PathMap<ActorSlot>>();
  readonly #running = new Map<string, number>();
  readonly #queued = new Map<string, Array<() => void>>();
  /** Hibernated actors, by run and path. */
  readonly #dormant = new DormantActors();
  /** With a hibernation policy: when waiting actors go to sleep. */
  readonly #bedtimes: Bedtimes | undefined;
  /** Traces of actors let go before their run ended, kept open until it ends (`endRetired`). */
  readonly #retired = new RetiredTraces();
  #closed = false;

  constructor(options: ActorHostOptions) {
    this.#options = options;
    this.#checkpoints = new CheckpointWriter(options.store, options.onError);
    const policy = options.hibernation;
    this.#bedtimes = policy === undefined ? undefined : new Bedtimes(policy, (slot) => void this.#hibernate(slot).catch(this.#failed));
  }

  /** How many actors are hosted. */
  get size(): number {
    let size = 0;
    for (const run of this.#runs.values()) size += run.size;
    return size;
  }

  /** Builds and starts the actor `request` asks for; its tools reach other actors through `transport`. */
  host(request: SpawnRequest, transport: Transport): HostedActor {
    if (this.#closed) throw new TroupeError(TransportErrorCode.Closed, 'the transport is closed');
    // Object.assign, not a spread: in Node 20 a spread copy that gains fields leaves V8's fast clone path.
    // The agent's events come to `#onEvent` through a plain listener: no rxjs subscriber per actor.
    let hosted: ActorSlot | undefined;
    const onEvent = (event: AgentEvent): void => hosted && this.#onEvent(hosted, event);
    // A call not safe to run twice starts once the checkpoint holding it is stored (see `AgentOptions.checkpointed`).
    const checkpointed = (): Promise<void> => (hosted === undefined ? SETTLED : this.#checkpoints.stored(hosted));
    const options: AgentOptions = Object.assign({}, this.#options.factory(request, transport), { path: request.path, onEvent, checkpointed });
    if (request.sessionId !== undefined) options.sessionId = request.sessionId;
    const agent = request.snapshot === undefined ? new Agent(options) : Agent.restore(request.snapshot, options);
    const slot: ActorSlot = {
      request,
      agent,
      due: false,
      saved: SETTLED,
      counted: false,
      queued: undefined,
      started: SETTLED,
      trace: undefined,
      outcome: undefined,
      bedtime: undefined,
      unsaved: false,
      transport,
    };
    const run = this.#runs.get(request.runId) ?? new PathMap<ActorSlot>();
    this.#runs.set(request.runId, run.set(request.path, slot));
    hosted = slot;
    slot.trace = this.#options.instrumentation?.actor(slot);
    this.#options.onHost?.(slot);
    if (request.snapshot === undefined) this.#whenFree(slot, request.input ?? '');
    else this.#take(slot);
    return slot;
  }

  /**
   * The outcome of the hosted actor at `path` (its run once it has started, for one waiting for a
   * slot; a hibernated one's once it has been woken and ends); undefined when none is hosted.
   */
  result(runId: RunId, path: AgentPath): Promise<AgentResult> | undefined {
    const slot = this.#runs.get(runId)?.get(path);
    // Without hibernation a started actor's outcome is its agent's: no promise more.
    if (slot !== undefined && slot.queued === undefined && this.#options.hibernation === undefined) return slot.agent.result;
    const outcome = newOutcome();
    return this.whenEnded(runId, path, outcome) ? outcome.promise : undefined;
  }

  /**
   * Tells `waiter` the outcome of the hosted actor at `path`, as {@link result} would resolve
   * (without a promise: a hibernated actor keeps only its waiters); false when none is hosted.
   */
  whenEnded(runId: RunId, path: AgentPath, waiter: OutcomeWaiter): boolean {
    const slot = this.#runs.get(runId)?.get(path);
    if (slot === undefined) {
      const dormant = this.#dormant.get(runId, path);
      dormant?.whenEnded(waiter);
      return dormant !== undefined;
    }
    if (slot.queued === undefined) this.#wait(slot, waiter);
    else void slot.started.then(() => this.#wait(slot, waiter));
    return true;
  }

  /** Tells `waiter` the outcome of `slot`'s current run; with hibernation, through its waiters, which a hibernation hands on. */
  #wait(slot: ActorSlot, waiter: OutcomeWaiter): void {
    if (this.#options.hibernation === undefined) {
      tellWhenSettled(slot.agent.result, waiter);
      return;
    }
    if (slot.outcome === undefined) {
      slot.outcome = new OutcomeWaiters();
      tellWhenSettled(slot.agent.result, slot.outcome);
    }
    slot.outcome.add(waiter);
  }

  /** Whether the actor at `path` is hibernated (then `wake` it before controlling it). */
  isDormant(runId: RunId, path: AgentPath): boolean {
    return this.#dormant.get(runId, path) !== undefined;
  }

  /**
   * Restores the hibernated actor at `path` from its checkpoint in the store and hosts it again;
   * resolves at once when it is not hibernated. Concurrent calls share one restoration.
   */
  wake(runId: RunId, path: AgentPath): Promise<void> {
    const dormant = this.#dormant.get(runId, path);
    if (dormant === undefined) return Promise.resolve();
    dormant.waking ??= this.#restore(runId, path, dormant);
    return dormant.waking;
  }

  /** The hosted actor at `path`, if any. */
  get(runId: RunId, path: AgentPath): HostedActor | undefined {
    return this.#runs.get(runId)?.get(path);
  }

  /** Whether any actor of `runId` is hosted (without listing them: asked as each actor of an ended run is let go). */
  hostsRun(runId: RunId): boolean {
    return this.#runs.has(runId);
  }

  /** Every hosted actor of `runId`. */
  actors(runId: RunId): HostedActor[] {
    return [...(this.#runs.get(runId)?.values() ?? [])];
  }

  /** Applies `command` to the hosted actor at `path`; rejects with `unknown_actor` when there is none. */
  control(runId: RunId, path: AgentPath, command: ControlCommand): void {
    const slot = this.#runs.get(runId)?.get(path);
    if (slot === undefined) throw new TroupeError(TransportErrorCode.UnknownActor, `no actor ${path} in run ${runId}`);
    const { agent } = slot;
    switch (command.type) {
      case 'abort':
        // One still waiting for a slot starts at once, so its run ends as aborted like any other.
        if (slot.queued !== undefined) this.#unqueue(slot)();
        agent.abort();
        return;
      case 'steer':
        agent.steer(command.message);
        return;
      case 'followUp':
        agent.followUp(command.message);
        return;
      case 'reply':
        agent.reply(command.answer);
        return;
      case 'prompt':
        // A new run of the agent: a new outcome.
        slot.outcome = undefined;
        this.#whenFree(slot, command.input);
        return;
      case 'approve':
        agent.approve(command.callId, command.decision);
        return;
    }
  }

  /** Resolves once every checkpoint of the actor at `path` written so far is stored. */
  async settled(runId: RunId, path: AgentPath): Promise<void> {
    const slot = this.#runs.get(runId)?.get(path);
    if (slot === undefined) return;
    if (slot.due) await new Promise<void>((resolve) => queueMicrotask(resolve));
    await slot.saved;
  }

  /**
   * Stops hosting the actor at `path` (disposes it without ending its run: its snapshot stays the
   * truth); its trace ends now, or with `retire` when its run ends (`endRetired`).
   */
  release(runId: RunId, path: AgentPath, retire = false): void {
    const run = this.#runs.get(runId);
    const slot = run?.get(path);
    if (run === undefined || slot === undefined) return;
    run.delete(path);
    if (run.size === 0) this.#runs.delete(runId);
    if (slot.queued !== undefined) this.#unqueue(slot);
    this.#give(slot);
    this.#bedtimes?.forget(slot);
    if (retire && slot.trace !== undefined) this.#retired.park(runId, slot.trace);
    else slot.trace?.end();
    slot.agent.dispose();
  }

  /** Ends the traces of the actors of `runId` let go with `retire` (its run has ended). */
  endRetired(runId: RunId): void {
    this.#retired.end(runId);
  }

  /** Disposes every hosted actor. */
  close(): void {
    this.#closed = true;
    for (const run of this.#runs.values())
      for (const slot of run.values()) {
        slot.trace?.end();
        slot.agent.dispose();
      }
    this.#bedtimes?.clear();
    this.#runs.clear();
    this.#queued.clear();
    this.#dormant.clear();
    this.#retired.endAll();
  }

  /** Lets go of the actor at `path` once it has ended and its checkpoint is stored; its trace ends then (see `release` for `retire`). */
  async letGo(runId: RunId, path: AgentPath, retire = false): Promise<void> {
    const slot = this.#runs.get(runId)?.get(path);
    if (slot === undefined) return;
    await this.settled(runId, path);
    // Still the same ended actor: a resume may have hosted a new one at this path meanwhile.
    if (this.#runs.get(runId)?.get(path) !== slot || slot.agent.isRunning || slot.queued !== undefined) return;
    this.release(runId, path, retire);
  }

  /** Hibernates `slot` once its checkpoint is stored, if it still waits for a user then. */
  async #hibernate(slot: ActorSlot): Promise<void> {
    const { runId, path } = slot.request;
    await this.settled(runId, path);
    if (this.#closed || this.#runs.get(runId)?.get(path) !== slot || slot.agent.state !== 'waiting_user' || slot.unsaved) return;
    this.release(runId, path);
    this.#dormant.add(new DormantActor(slot.request, slot.transport, slot.outcome?.compact()));
  }

  async #restore(runId: RunId, path: AgentPath, dormant: DormantActor): Promise<void> {
    try {
      const snapshot = (await this.#options.store.loadSnapshots(runId)).find((candidate) => candidate.agentPath === path);
      if (snapshot === undefined) throw new TroupeError(TransportErrorCode.UnknownActor, `no checkpoint of ${path} in run ${runId} to wake it from`);
      if (this.#closed) throw new TroupeError(TransportErrorCode.Closed, 'the transport is closed');
      this.host({ ...dormant.request, snapshot }, dormant.transport);
      const slot = this.#runs.get(runId)?.get(path);
      const waiters = dormant.waiters();
      if (slot !== undefined && waiters !== undefined) {
        slot.outcome = OutcomeWaiters.of(waiters);
        tellWhenSettled(slot.agent.result, slot.outcome);
      }
    } finally {
      this.#dormant.delete(runId, path);
    }
  }

  /** Reports a failure of background work; one function for every actor, not a closure each. */
  readonly #failed = (error: unknown): void => this.#options.onError?.(error);

  /** Prompts `slot`'s agent with `input` once it has a free concurrency slot. */
  #whenFree(slot: ActorSlot, input: string): void {
    const limit = this.#options.concurrency?.(slot.request.agent);
    const agent = slot.request.agent;
    if (limit === undefined || slot.counted || (this.#running.get(agent) ?? 0) < limit) {
      this.#take(slot);
      this.#start(slot, input);
      return;
    }
    let started!: () => void;
    slot.started = new Promise<void>((resolve) => (started = resolve));
    slot.queued = () => {
      slot.queued = undefined;
      this.#take(slot);
      this.#start(slot, input);
      started();
    };
    const queue = this.#queued.get(agent) ?? [];
    queue.push(slot.queued);
    this.#queued.set(agent, queue);
  }

  #start(slot: ActorSlot, input: string): void {
    slot.agent.prompt(input, { runId: slot.request.runId }).catch(this.#failed);
  }

  /** Takes `slot` out of its agent's queue and returns its start. */
  #unqueue(slot: ActorSlot): () => void {
    const start = slot.queued ?? (() => undefined);
    const queue = this.#queued.get(slot.request.agent);
    queue?.splice(queue.indexOf(start), 1);
    return start;
  }

  #take(slot: ActorSlot): void {
    if (slot.counted) return;
    slot.counted = true;
    this.#running.set(slot.request.agent, (this.#running.get(slot.request.agent) ?? 0) + 1);
  }

  #give(slot: ActorSlot): void {
    if (!slot.counted) return;
    slot.counted = false;
    const agent = slot.request.agent;
    this.#running.set(agent, (this.#running.get(agent) ?? 1) - 1);
    this.#queued.get(agent)?.shift()?.();
  }

  #onEvent(slot: ActorSlot, event: AgentEvent): void {
    this.#options.store.appendEvent(event);
    let frees = false;
    switch (event.type) {
      case 'state':
        this.#bedtimes?.track(slot, event.state === 'waiting_user');
        if (event.state === 'tool_executing') this.#checkpoints.schedule(slot);
        if (event.state === 'thinking' || event.state === 'tool_executing') this.#take(slot);
        else if (event.state === 'waiting_user') {
          for (const other of this.#runs.get(slot.request.runId)?.values() ?? [])
            if (other === slot || other.agent.isRunning) this.#checkpoints.schedule(other);
          frees = true;
        }
        break;
      case 'turn_end':
        this.#checkpoints.schedule(slot);
        break;
      case 'agent_end':
        this.#checkpoints.schedule(slot);
        frees = true;
        break;
    }
    this.#options.onEvent?.(event, slot);
    // After the event is out, so an actor started in the freed slot comes after it.
    if (frees) this.#give(slot);
  }
}
