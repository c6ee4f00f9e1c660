import type { Agent, CheckpointMark } from '@troupe/core';
import type { Outcome } from './hibernation.js';
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
  /** With hibernation: the outcome of its current run, made when first asked for. */
  outcome: Outcome | undefined;
  /** With hibernation: its hibernation, while it waits for a user. */
  bedtime: ReturnType<typeof setTimeout> | undefined;
  /** Whether its last checkpoint write failed (then it does not hibernate: its checkpoint is stale). */
  unsaved: boolean;
  /** The transport its tools reach other actors through. */
  transport: Transport;
}
