import { Agent, TroupeError, type AgentEvent, type AgentOptions, type AgentPath, type AgentResult, type CheckpointMark, type RunId } from '@troupe/core';
import { Subject, type Observable } from 'rxjs';
import type { RunStore } from '../store/run-store.js';
import type { ControlCommand, SpawnRequest, Transport } from './transport.js';

/** Builds the options of the agent a spawn request asks for (its tools bound to `transport`). */
export type ActorFactory = (request: SpawnRequest, transport: Transport) => AgentOptions;

/** Error codes of transports. */
export const TransportErrorCode = { UnknownActor: 'unknown_actor', Closed: 'transport_closed' } as const;

interface RunActors {
  events: Subject<AgentEvent>;
  actors: Map<string, Agent>;
  /** Where each actor's last checkpoint ended. */
  marks: Map<Agent, CheckpointMark>;
  /** Actors with a checkpoint due at the end of this tick. */
  due: Set<Agent>;
}

/** Options of {@link createInProcessTransport}. */
export interface InProcessTransportOptions {
  factory: ActorFactory;
  /** Where events and snapshots go. */
  store: RunStore;
  /** Called with failures of background work (a store write that failed). */
  onError?: (error: unknown) => void;
}

/** The transport of the embedded runtime: every actor lives in this process. See {@link Transport}. */
export function createInProcessTransport(options: InProcessTransportOptions): Transport {
  return new InProcessTransport(options);
}

/**
 * Hosts actors in this process. Each actor's events go to its run's stream and to the store;
 * its snapshot is written when it starts executing tools, at each turn boundary, when it waits
 * for a user, and when it ends. When any actor of a run starts waiting, every live actor of the
 * run is checkpointed, so a parent blocked on a waiting child can be resumed from another process.
 */
class InProcessTransport implements Transport {
  readonly #options: InProcessTransportOptions;
  readonly #runs = new Map<string, RunActors>();
  #closed = false;

  constructor(options: InProcessTransportOptions) {
    this.#options = options;
  }

  async spawn(request: SpawnRequest): Promise<void> {
    if (this.#closed) throw new TroupeError(TransportErrorCode.Closed, 'the transport is closed');
    const run = this.#run(request.runId);
    const options = { ...this.#options.factory(request, this), path: request.path };
    const agent = request.snapshot === undefined ? new Agent(options) : Agent.restore(request.snapshot, options);
    run.actors.set(request.path, agent);
    agent.events$.subscribe((event) => this.#onEvent(run, agent, event));
    if (request.snapshot === undefined) {
      agent.prompt(request.input ?? '', { runId: request.runId }).catch((error: unknown) => this.#fail(error));
    }
  }

  async control(runId: RunId, path: AgentPath, command: ControlCommand): Promise<void> {
    const agent = this.#runs.get(runId)?.actors.get(path);
    if (agent === undefined) throw new TroupeError(TransportErrorCode.UnknownActor, `no actor ${path} in run ${runId}`);
    switch (command.type) {
      case 'abort':
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
        agent.prompt(command.input, { runId }).catch((error: unknown) => this.#fail(error));
        return;
      case 'approve':
        agent.approve(command.callId, command.decision);
        return;
    }
  }

  result(runId: RunId, path: AgentPath): Promise<AgentResult> {
    const agent = this.#runs.get(runId)?.actors.get(path);
    if (agent === undefined) return Promise.reject(new TroupeError(TransportErrorCode.UnknownActor, `no actor ${path} in run ${runId}`));
    return agent.result;
  }

  events(runId: RunId): Observable<AgentEvent> {
    return this.#run(runId).events.asObservable();
  }

  async close(): Promise<void> {
    this.#closed = true;
    for (const run of this.#runs.values()) {
      for (const agent of run.actors.values()) agent.dispose();
      run.events.complete();
    }
    this.#runs.clear();
  }

  #run(runId: RunId): RunActors {
    let run = this.#runs.get(runId);
    if (run === undefined) {
      run = { events: new Subject(), actors: new Map(), marks: new Map(), due: new Set() };
      this.#runs.set(runId, run);
    }
    return run;
  }

  #onEvent(run: RunActors, agent: Agent, event: AgentEvent): void {
    const { store } = this.#options;
    store.appendEvent(event);
    if (event.type === 'turn_end' || event.type === 'agent_end' || (event.type === 'state' && event.state === 'tool_executing')) {
      this.#checkpoint(run, agent);
    } else if (event.type === 'state' && event.state === 'waiting_user') {
      for (const actor of run.actors.values()) if (actor === agent || actor.isRunning) this.#checkpoint(run, actor);
    }
    run.events.next(event);
  }

  /** Checkpoints `agent` once at the end of this tick, however many reasons arrive meanwhile. */
  #checkpoint(run: RunActors, agent: Agent): void {
    if (run.due.has(agent)) return;
    run.due.add(agent);
    queueMicrotask(() => {
      run.due.delete(agent);
      const { mark, ...checkpoint } = agent.checkpoint(run.marks.get(agent));
      run.marks.set(agent, mark);
      this.#options.store.saveCheckpoint(agent.runId, checkpoint).catch((error: unknown) => this.#fail(error));
    });
  }

  #fail(error: unknown): void {
    this.#options.onError?.(error);
  }
}
