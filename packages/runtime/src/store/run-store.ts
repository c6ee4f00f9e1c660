import type { AgentCheckpoint, AgentEvent, AgentPath, AgentSnapshot, ErrorInfo, RunId, RunStopReason, Usage } from '@troupe/core';
import type { ToolProcessLedger } from '../local/tool-process-ledger.js';
import type { TraceCarrier } from '../system/trace-carrier.js';

/**
 * Where a run stands. `waiting`: some actor waits for a user's answer or approval.
 * `interrupted` is never written, only read: a store that knows which process runs a run reports
 * a `running` run whose process has ended (killed) so; `resume` goes on with it.
 */
export type RunStatus = 'running' | 'waiting' | 'interrupted' | 'done' | 'failed' | 'aborted';

/**
 * Whether a run of each status has ended for good. An `interrupted` run has not: `troupe resume`
 * goes on with it (and whether its process is gone is a guess from this machine).
 */
const ENDED: Record<RunStatus, boolean> = { running: false, waiting: false, interrupted: false, done: true, failed: true, aborted: true };

/** Every {@link RunStatus}, in the order a run may go through them. */
export const RUN_STATUSES = Object.keys(ENDED) as readonly RunStatus[];

/** Whether `status` is one of {@link RUN_STATUSES}. */
export function isRunStatus(status: string): status is RunStatus {
  return Object.hasOwn(ENDED, status);
}

/** Whether a run with `status` has ended (`done`, `failed`, `aborted`): not running, waiting for a user, or interrupted. */
export function hasEnded(status: RunStatus): boolean {
  return ENDED[status];
}

/** What a run store keeps about a run. Plain JSON. */
export interface RunRecord {
  id: RunId;
  /** The graph file the run was started from (absolute), so another process can resume it. */
  graphFile?: string;
  /** The agent (or pipeline) the run started with. */
  entry: string;
  input: string;
  /** The conversation the run belongs to: its entry's (and its delegates') session id. */
  sessionId?: string;
  status: RunStatus;
  startedAt: number;
  endedAt?: number;
  stopReason?: RunStopReason;
  /** Usage summed over every actor of the run: kept up to date while it runs, not only at its end. */
  usage?: Usage;
  /**
   * The model turns of the run: each actor's latest turn, summed over its actors. Kept up to date
   * while it runs, as `usage` is; absent in records written before it was kept.
   */
  turns?: number;
  error?: ErrorInfo;
  /** The trace context of the run's span, when it was traced: a resumed run goes on in the same trace. */
  trace?: TraceCarrier;
  /**
   * The model the entry was switched to (`troupe chat`'s `/model`: a model key of the graph, or
   * `provider:model`), when it was: a resumed conversation goes on with it.
   */
  model?: string;
}

/** A delegation: which child actor answers which tool call of which parent. */
export interface ChildRecord {
  parent: AgentPath;
  toolCallId: string;
  path: AgentPath;
  agent: string;
  task: string;
  depth: number;
  /** Set once the child has ended. */
  outcome?: ChildOutcome;
}

/** What a finished child hands back to its parent's tool call. */
export interface ChildOutcome {
  stopReason: RunStopReason;
  text: string;
  error?: ErrorInfo;
  usage: Usage;
}

/**
 * Keeps runs: their records, events, actor checkpoints and delegations, so a run can be listed,
 * inspected, and resumed by another process. Messages are stored once, appended: a turn's
 * checkpoint writes what the turn added, never the whole conversation again.
 *
 * Contract: writes of one record — the run's record, one actor's checkpoints, one delegation —
 * are applied in call order (a store may apply writes of different records at once);
 * `appendEvent` may buffer, and `flush` resolves once everything appended before it is durable. Reads reflect every completed write.
 * Methods reject with a typed error for an unknown run id, never return partial records.
 */
export interface RunStore {
  /**
   * Where the process groups the run's tools start are recorded while they run, so that resuming
   * a run whose process was killed first ends those it left running. Absent: not recorded.
   */
  readonly processes?: ToolProcessLedger;
  createRun(record: RunRecord): Promise<void>;
  updateRun(id: RunId, patch: Partial<Omit<RunRecord, 'id'>>): Promise<void>;
  getRun(id: RunId): Promise<RunRecord | undefined>;
  listRuns(): Promise<RunRecord[]>;
  appendEvent(event: AgentEvent): void;
  flush(id: RunId): Promise<void>;
  readEvents(id: RunId): Promise<AgentEvent[]>;
  /** Stores an actor's checkpoint: its head replaces the last one, its messages are appended at `from`. */
  saveCheckpoint(id: RunId, checkpoint: Omit<AgentCheckpoint, 'mark'>): Promise<void>;
  /** Every actor's latest snapshot, its history rebuilt from the appended messages. */
  loadSnapshots(id: RunId): Promise<AgentSnapshot[]>;
  saveChild(id: RunId, child: ChildRecord): Promise<void>;
  /** The child answering `toolCallId` of `parent`. */
  child(id: RunId, parent: AgentPath, toolCallId: string): Promise<ChildRecord | undefined>;
  /** Every delegation of the run (of `parent` only, when given). */
  children(id: RunId, parent?: AgentPath): Promise<ChildRecord[]>;
  /**
   * Deletes everything kept about a run — its record, events, checkpoints and delegations — once
   * the writes made to it so far have landed. The caller makes sure the run has ended (nothing
   * writes to it any more); `troupe runs prune` never deletes a running, waiting or interrupted run.
   */
  deleteRun(id: RunId): Promise<void>;
}
