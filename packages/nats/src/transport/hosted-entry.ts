import type { AgentResult } from '@troupe/core';
import type { HostedActor, SpawnRequest } from '@troupe/runtime';
import type { ActorRecord } from '../actors/actor-record.js';
import type { ControlListener } from '../actors/control-line.js';

/** What a worker learns about an actor it hosts for a task. */
export interface HostingHooks {
  /** The actor waits for a user; its checkpoint and record are stored. */
  onWaiting?(actor: HostedActor): void;
  /** The actor's run ended; its checkpoint and record (with the result) are stored. */
  onEnded?(actor: HostedActor, result: AgentResult): void;
}

/** The fields every record of a hosted actor carries. */
export type RecordBase = Pick<ActorRecord, 'agent' | 'depth' | 'fromQueue' | 'graph' | 'trace'>;

/**
 * What this process keeps about one actor it hosts, from the moment it hosts it until it lets it
 * go: the subscription to its control subject, what its host wants to learn about it, whether it
 * is task-bound (hosted for a task taken from the queue), whether it waits for a user, and its record writes, kept in order
 * (a `waiting` record must not land after the `ended` one that follows it).
 */
export class HostedEntry {
  readonly request: SpawnRequest;
  /** Its control subject, answered while it is hosted here. */
  readonly listener: ControlListener;
  readonly hooks: HostingHooks;
  /** Task-bound: hosted for a task taken from the queue; its records say so as `fromQueue` (see {@link ActorRecord.fromQueue}). */
  readonly taskBound: boolean;
  /** It waits for a user: the next `thinking` or `tool_executing` state records it `running` again. */
  waiting = false;
  /** How many waits for a user it has begun here: a wait is current while no later one began. */
  waits = 0;
  #writes: Promise<unknown> = Promise.resolve();

  constructor(request: SpawnRequest, listener: ControlListener, hooks: HostingHooks, taskBound: boolean) {
    this.request = request;
    this.listener = listener;
    this.hooks = hooks;
    this.taskBound = taskBound;
  }

  /** Settles once every record write queued so far has settled. */
  get written(): Promise<unknown> {
    return this.#writes;
  }

  /** Runs `write` once the record writes queued so far have settled, without queueing it (later writes do not wait for it). */
  afterWrites<T>(write: () => Promise<T>): Promise<T> {
    return this.#writes.then(write);
  }

  /** Queues `write` after the earlier record writes; its failure goes to `onError` and does not stop later writes. */
  chain(write: () => Promise<unknown>, onError: ((error: unknown) => void) | undefined): Promise<unknown> {
    this.#writes = this.#writes.then(write).catch((error: unknown) => onError?.(error));
    return this.#writes;
  }

  /** The fields every record of it carries; `graph` is the process's (see `TaskQueue.recordGraph`), `trace` the one it was hosted in. */
  base(graph: Pick<ActorRecord, 'graph'>): RecordBase {
    const base: RecordBase = { agent: this.request.agent, depth: this.request.depth, ...graph };
    if (this.taskBound) base.fromQueue = true;
    if (this.request.trace !== undefined) base.trace = this.request.trace;
    return base;
  }
}
