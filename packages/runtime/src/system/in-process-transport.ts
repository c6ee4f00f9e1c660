import { TroupeError, type AgentEvent, type AgentPath, type AgentResult, type RunId } from '@troupe/core';
import { Subject, type Observable } from 'rxjs';
import type { RunStore } from '../store/run-store.js';
import { TransportErrorCode } from '../runtime-error-codes.js';
import { ActorHost, type ActorFactory } from './actor-host.js';
import type { HibernationPolicy } from './hibernation.js';
import type { Instrumentation } from './instrumentation.js';
import type { ControlCommand, SpawnRequest, Transport } from './transport.js';

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
}

/** The transport of the embedded runtime: every actor lives in this process. See {@link Transport}. */
export function createInProcessTransport(options: InProcessTransportOptions): Transport {
  return new InProcessTransport(options);
}

/** Hosts every actor in this process ({@link ActorHost}) and hands their events out per run. */
class InProcessTransport implements Transport {
  readonly #host: ActorHost;
  readonly #events = new Map<string, Subject<AgentEvent>>();

  constructor(options: InProcessTransportOptions) {
    this.#host = new ActorHost({ ...options, onEvent: (event) => this.#events.get(event.runId)?.next(event) });
  }

  async spawn(request: SpawnRequest): Promise<void> {
    this.#run(request.runId);
    this.#host.host(request, this);
  }

  async control(runId: RunId, path: AgentPath, command: ControlCommand): Promise<void> {
    // A hibernated actor is restored first: its address does not change.
    if (this.#host.isDormant(runId, path)) await this.#host.wake(runId, path);
    this.#host.control(runId, path, command);
  }

  result(runId: RunId, path: AgentPath): Promise<AgentResult> {
    return this.#host.result(runId, path) ?? Promise.reject(new TroupeError(TransportErrorCode.UnknownActor, `no actor ${path} in run ${runId}`));
  }

  events(runId: RunId): Observable<AgentEvent> {
    return this.#run(runId).asObservable();
  }

  async close(): Promise<void> {
    this.#host.close();
    for (const events of this.#events.values()) events.complete();
    this.#events.clear();
  }

  #run(runId: RunId): Subject<AgentEvent> {
    let events = this.#events.get(runId);
    if (events === undefined) {
      events = new Subject();
      this.#events.set(runId, events);
    }
    return events;
  }
}
