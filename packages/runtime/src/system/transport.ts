import type { Agent, AgentEvent, AgentPath, AgentResult, AgentSnapshot, PermissionDecision, RunId } from '@troupe/core';
import type { Observable } from 'rxjs';
import type { OutcomeWaiter } from './outcome.js';
import type { TraceCarrier } from './trace-carrier.js';

/** Start an actor of a run: a fresh one with `input`, or one restored from `snapshot`. */
export interface SpawnRequest {
  runId: RunId;
  /** Where the actor sits in the run's tree (`lead/researcher#2`). */
  path: AgentPath;
  /** The graph's agent to run. */
  agent: string;
  /** The task: the user message of a fresh actor. */
  input?: string;
  /** Restore from this snapshot instead of starting fresh. */
  snapshot?: AgentSnapshot;
  /** How many delegations deep the actor is (the entry is 0). */
  depth: number;
  /** The conversation a fresh actor's runs belong to (its run's, a delegate's parent's); a restored actor keeps its snapshot's. */
  sessionId?: string;
  /** The trace context it starts in: its delegating tool call's, its pipeline step's, or its run's (see `Instrumentation`). */
  trace?: TraceCarrier;
  /**
   * Nobody prompts it again once it has ended (a delegation's child: its outcome goes to its
   * parent), so a host may let go of it as soon as it has ended and its checkpoint is stored, not
   * only at the end of its run; `result` then answers from the store and `control` rejects with
   * `unknown_actor`, as for any actor of an ended run.
   */
  oneShot?: boolean;
}

/** An actor a process hosts: what it was spawned with, and the agent running it. */
export interface HostedActor {
  readonly request: SpawnRequest;
  readonly agent: Agent;
}

/** What can be asked of a running actor from anywhere. */
export type ControlCommand =
  | { type: 'abort' }
  | { type: 'steer'; message: string }
  | { type: 'followUp'; message: string }
  | { type: 'reply'; answer: string }
  /** Starts another run of an actor that has ended, in the same conversation. */
  | { type: 'prompt'; input: string }
  | { type: 'approve'; callId: string; decision: PermissionDecision };

/**
 * Moves a run's actors, their events and their control messages between whoever starts them and
 * wherever they run: in this process, or on workers over NATS.
 *
 * Contract: `spawn` resolves once the actor is accepted (not when it ends); the actor's events,
 * `agent_end` included, arrive on `events(runId)` tagged with its path, in the order it emitted
 * them. `events` is hot: subscribe before spawning to see everything (`result` has no such race).
 * `control` reaches the actor
 * at `path` wherever it lives and rejects with a typed error when no such actor is running.
 * Aborting an actor aborts its subtree (through its delegation tools' abort signals).
 */
export interface Transport {
  /**
   * Whether `result` answers for an ended actor from any process, long after it ended (a
   * distributed transport keeps each actor's outcome in its record). Then a delegation need not
   * record its child's outcome itself: a restored parent asks the transport.
   */
  readonly keepsResults?: boolean;
  spawn(request: SpawnRequest): Promise<void>;
  control(runId: RunId, path: AgentPath, command: ControlCommand): Promise<void>;
  events(runId: RunId): Observable<AgentEvent>;
  /**
   * A lighter `events(runId).subscribe`, for a transport that can hand events to a plain function
   * (what a run handle follows its run with: no rxjs subscriber per run). The listener hears the
   * run's events as `events` gives them, then `undefined` once they end, and is let go then; the
   * returned function stops it earlier. A run handle does not call it: a transport with `listen`
   * ends each run's events (`endRun`, `close`), which lets the handle go. Without this method the
   * runtime subscribes to `events`.
   */
  listen?(runId: RunId, listener: (event: AgentEvent | undefined) => void): () => void;
  /**
   * The outcome of the actor at `path`: resolves at its `agent_end` (at once if it has already
   * ended); rejects with a typed error when no such actor was ever spawned on this transport.
   */
  result(runId: RunId, path: AgentPath): Promise<AgentResult>;
  /**
   * A lighter `result(runId, path).then(…)`, for a transport that can tell a waiter without a
   * promise (what a run waits for its entry with: a run hibernated for days keeps its waiter, not
   * a promise chain). Tells `waiter` what `result` would resolve or reject with. Without this
   * method the runtime waits on `result`.
   */
  whenEnded?(runId: RunId, path: AgentPath, waiter: OutcomeWaiter): void;
  /**
   * For resuming a run in another process (`Runtime.resume`): the actors of `runId` that had not
   * ended whose host is gone and that nothing else takes up, for the resuming process to restore.
   * Without this method every actor that had not ended is. A distributed transport leaves out
   * the actors its task queue delivers again, and rejects (`run_still_hosted`) while a live
   * process still hosts the run.
   */
  stranded?(runId: RunId): Promise<ReadonlySet<AgentPath>>;
  /**
   * For a transport that queues actors for other processes to take (a distributed one): reports,
   * while the actor at `path` just spawned waits for a host, what it waits for — no live worker
   * hosts its agent, with the command that starts one — and then who took it, each as one line
   * for `report`. Returns what stops the watch. Without this method there is nothing to report
   * (every actor is hosted as it is spawned).
   */
  watchUntilTaken?(request: Pick<SpawnRequest, 'runId' | 'path' | 'agent'>, report: (text: string) => void): () => void;
  /**
   * Called by the runtime once a run has ended and its record is stored: the transport may let go
   * of what it holds for the run in this process (its ended actors; their snapshots in the store
   * stay the truth, and `result` still answers from them). Without this method nothing is let go.
   */
  endRun?(runId: RunId): Promise<void>;
  close(): Promise<void>;
}
