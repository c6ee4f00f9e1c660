import type { UnstampedEvent } from './unstamped-event.js';
import type { AgentPath, RunId } from './ids.js';
import type { AgentMachineEvent } from './machine-types.js';

/**
 * What an agent's effects call back into: its clock, its run and session, its event sink and its
 * statechart. One object per agent (an `AgentLink`) whose methods every agent shares: the effects'
 * optimised code, which inlines these calls, stays valid when the next agent comes (closures made
 * per agent were a new call target for each, and deoptimised it at each new agent's first turns).
 */
export interface AgentPort {
  readonly agentPath: AgentPath;
  /** The agent clock's time. */
  now(): number;
  /** The current run's id. */
  runId(): RunId;
  /** The conversation's id. */
  sessionId(): string;
  /** Publishes an event of the agent (the envelope is stamped on it: it is made with placeholders, see `NO_RUN`). */
  emit(event: UnstampedEvent): void;
  /** Sends an event to the agent's statechart. */
  send(event: AgentMachineEvent): void;
}
