import { isSnapshotActive, TroupeError, type AgentEvent, type AgentPath, type AgentResult, type RunId } from '@troupe/core';
import type { Observable } from 'rxjs';
import type { RunStore } from '../store/run-store.js';
import { TransportErrorCode } from '../runtime-error-codes.js';
import { ActorHost, type ActorFactory } from './actor-host.js';
import type { HibernationPolicy } from './hibernation.js';
import { endedResult } from './ended-result.js';
import type { Instrumentation } from './instrumentation.js';
import { tellWhenSettled, type OutcomeWaiter } from './outcome.js';
import { RunEventFanOut, type RunEventListener } from './run-event-fan-out.js';
import type { ControlCommand, HostedActor, SpawnRequest, Transport } from './transport.js';

/** Options of {@link createInProcessTransport}. */
export interface InProcessTransportOptions {
  factory: ActorFactory;
  /** Where events and snapshots go. */
  store: RunStore;
  /** The most actors of an agent run at once (the graph's `concurrency`). */
  concurrency?: (agent: string) => number | undefined;
  /** Called with failures of background work (a store write that failed). */
  onError?: (error: unknown) => void;
  /** Follows each actor, for tracing and metrics. */
  instrumentation?: Instrumentation;
  /** When actors waiting for a user leave memory (see {@link HibernationPolicy}); without it they stay. */
  hibernation?: HibernationPolicy;
  /** Called with each actor as it is hosted, before its run starts (see `ActorHostOptions.onHost`). */
  onHost?: (actor: HostedActor) => void;
}

/** The transport of the embedded runtime: every actor lives in this process. See {@link Transport}. */
export function createInProcessTransport(options: InProcessTransportOptions): Transport {
  return new InProcessTransport(options);
}

/** Hosts every actor in this process ({@link ActorHost}) and hands their events out per run. */
class InProcessTransport implements Transport {
  readonly #host: ActorHost;
  readonly #store: RunStore;
  readonly #events = new RunEventFanOut();
  /** Runs that have ended ({@link endRun}): each of their actors still running is let go as it ends. */
  readonly #ended = new Set<string>();
  readonly #onError: ((error: unknown) => void) | undefined;

  constructor(options: InProcessTransportOptions) {
    this.#store = options.store;
    this.#onError = options.onError;
    const onEvent = (event: AgentEvent, actor: HostedActor): void => {
      this.#events.emit(event);
      // Ended actors are kept until their run ends (a pipeline prompts its step actors again), but
      // for one-shot ones: a run of many delegations would otherwise keep every child it had.
      if (event.type !== 'agent_end') return;
      // Before its run ends, a one-shot actor leaves memory at once, its trace kept open until then.
      if (this.#ended.has(event.runId)) void this.#letGo(event.runId, event.agentPath);
      else if (actor.request.oneShot === true) void this.#letGo(event.runId, event.agentPath, true);
    };
    this.#host = new ActorHost({ ...options, onEvent });
  }

  async spawn(request: SpawnRequest): Promise<void> {
    this.#host.host(request, this);
  }

  async control(runId: RunId, path: AgentPath, command: ControlCommand): Promise<void> {
    // A hibernated actor is restored first: its address does not change.
    if (this.#host.isDormant(runId, path)) await this.#host.wake(runId, path);
    this.#host.control(runId, path, command);
  }

  result(runId: RunId, path: AgentPath): Promise<AgentResult> {
    return this.#host.result(runId, path) ?? this.#storedResult(runId, path);
  }

  whenEnded(runId: RunId, path: AgentPath, waiter: OutcomeWaiter): void {
    if (!this.#host.whenEnded(runId, path, waiter)) tellWhenSettled(this.#storedResult(runId, path), waiter);
  }

  /** Lets go of the run's actors (each once it has ended) and of its event subject: the store has it all. */
  async endRun(runId: RunId): Promise<void> {
    this.#ended.add(runId);
    await Promise.all(this.#host.actors(runId).map((actor) => this.#letGo(runId, actor.request.path)));
    this.#host.endRetired(runId);
    this.#events.end(runId);
  }

  events(runId: RunId): Observable<AgentEvent> {
    return this.#events.events(runId);
  }

  listen(runId: RunId, listener: RunEventListener): () => void {
    return this.#events.listen(runId, listener);
  }

  async close(): Promise<void> {
    this.#host.close();
    this.#events.close();
  }

  #letGo(runId: RunId, path: AgentPath, retire = false): Promise<void> {
    return this.#host.letGo(runId, path, retire).then(
      () => {
        // Retired as its run ended meanwhile (`endRun` has ended the others' traces).
        if (retire && this.#ended.has(runId)) this.#host.endRetired(runId);
        if (!this.#host.hostsRun(runId)) this.#ended.delete(runId);
      },
      (error: unknown) => this.#onError?.(error),
    );
  }

  /** The result of an actor let go after its run ended, from its last checkpoint. */
  async #storedResult(runId: RunId, path: AgentPath): Promise<AgentResult> {
    const snapshots = this.#store.getRun(runId).then((record) => (record === undefined ? [] : this.#store.loadSnapshots(runId)));
    const snapshot = (await snapshots).find((s) => s.agentPath === path);
    if (snapshot === undefined || isSnapshotActive(snapshot)) throw new TroupeError(TransportErrorCode.UnknownActor, `no actor ${path} in run ${runId}`);
    return endedResult(runId, snapshot);
  }
}
