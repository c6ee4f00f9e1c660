import type { AgentResult, PendingInput } from '@troupe/core';

/** Where an actor of a distributed run stands. */
export type ActorStatus = 'queued' | 'running' | 'waiting' | 'ended';

/**
 * What the actors bucket keeps per actor of a distributed run: enough to find it, to hand its
 * result to whoever waits for it, and to wake it up when it was put aside waiting for a user.
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
   * Hosted for a task taken from the queue: should its host die, the queue delivers the task
   * again (and the actor's local children come back with it). Absent for an actor its spawner
   * hosts itself, which nothing takes up but a resume of the run.
   */
  fromQueue?: true;
  /** An abort asked for while no process hosted it: whoever takes it next ends it as aborted. */
  abortRequested?: boolean;
  updatedAt: number;
}
