import type { AgentResult, PendingInput } from '@troupe/core';
import type { TraceCarrier } from '@troupe/runtime';

/**
 * Where an actor of a distributed run stands. `queued`: a task for it is on the queue and no
 * worker has claimed it (an entry, an actor woken or handed over, or an unclaimed child whose abort was
 * asked for, noted in a record made for it; an unclaimed child otherwise has no record). `running`: a
 * process hosts it (a worker's claim, or its spawner). `waiting`: it waits for a user, hosted or
 * set aside. `ended`: with its result.
 */
export type ActorStatus = 'queued' | 'running' | 'waiting' | 'ended';

/**
 * What the actors bucket keeps per actor of a distributed run: enough to find it, to hand its
 * result to whoever waits for it, and to wake it up when it was set aside waiting for a user. A
 * worker claims a task's actor by writing its record `running` only where the record is absent or
 * still at the revision it read, so one process runs it however often the task is delivered.
 */
export interface ActorRecord {
  agent: string;
  /** How many delegations deep it is (the entry is 0). */
  depth: number;
  status: ActorStatus;
  /** The process hosting it while it is `running` (or `waiting` in memory). */
  host?: string;
  /** What it waits for, while `waiting`. */
  pending?: PendingInput;
  /** Its last run's outcome, once `ended`. */
  result?: AgentResult;
  /**
   * Task-bound (the stored name): hosted for a task taken from the queue: should its host die, the queue delivers the task
   * again (and the actor's local children come back with it). Absent for an actor its spawner
   * hosts itself, which nothing takes up but a resume of the run.
   */
  fromQueue?: true;
  /**
   * The fingerprint of the graph it runs (`graphHash`), when the process that wrote the record
   * knew it: a task that wakes the actor goes to that graph's workers.
   */
  graph?: string;
  /**
   * The trace context it was spawned in (`SpawnRequest.trace`), written with its first record (the
   * claim, or the put of whoever records it first) and kept by every later write of its hosts, so
   * a task that restores it days later (a wake-up, a handover) continues the same trace.
   */
  trace?: TraceCarrier;
  /** While `queued`: it was woken by an answer to its wait, so another answer to that wait is refused (`run_already_answered`). */
  answered?: true;
  /** An abort asked for while no process hosted it: whoever claims it next ends it as aborted. */
  abortRequested?: boolean;
  updatedAt: number;
}
