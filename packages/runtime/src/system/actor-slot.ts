import type { Agent, CheckpointMark } from '@troupe/core';
import type { OutcomeWaiters } from './outcome.js';
import type { ActorTrace } from './instrumentation.js';
import type { HostedActor, SpawnRequest, Transport } from './transport.js';

/** What an {@link ActorHost} keeps of each actor it hosts (the actor is what it hands out as a `HostedActor`). */
export interface ActorSlot extends HostedActor {
  request: SpawnRequest;
  agent: Agent;
  /** Where its last checkpoint ended. */
  mark?: CheckpointMark;
  /** Whether a checkpoint is due at the end of this tick. */
  due: boolean;
  /** The last checkpoint write. */
  saved: Promise<void>;
  /** Whether it holds one of its agent's concurrency slots. */
  counted: boolean;
  /** Its start, while it waits for a slot. */
  queued: (() => void) | undefined;
  /** Resolves once its run has started (at once for all but actors waiting for a slot). */
  started: Promise<void>;
  /** What the instrumentation follows of it while it is hosted here. */
  trace: ActorTrace | undefined;
  /** With hibernation: who waits for the outcome of its current run, made when the first waits. */
  outcome: OutcomeWaiters | undefined;
  /** With hibernation: its hibernation, while it waits for a user. */
  bedtime: ReturnType<typeof setTimeout> | undefined;
  /** Whether its last checkpoint write failed (then it does not hibernate: its checkpoint is stale). */
  unsaved: boolean;
  /** The transport its tools reach other actors through. */
  transport: Transport;
}
