import type { AgentPath, Message, PermissionDecision, RunId } from '@troupe/core';
import type { PendingAt, RunRecord } from '@troupe/runtime';
import type { GraphView } from '../graph-view.js';
import type { RunFeed } from '../run-feed.js';

/** What the page may ask of a run: the same calls `troupe approve/reply/steer/abort` make. */
export type RunAction =
  | { type: 'approve'; callId: string; decision: PermissionDecision; path?: string }
  | { type: 'reply'; answer: string; path?: string }
  | { type: 'steer'; message: string; path?: string }
  | { type: 'followUp'; message: string; path?: string }
  /** The whole run, or the actor at `path` and its subtree. */
  | { type: 'abort'; path?: string };

/** A run with what it waits for and where its actors run. */
export interface RunDetail {
  run: RunRecord;
  /** Every actor waiting for a person, with what for. */
  waiting: PendingAt[];
  /** Where each actor runs (`this process`, `worker-1a2b`), when the store says. */
  placements: Record<string, string>;
  /** Which process runs it, when the dashboard knows (`this dashboard`). */
  host?: string;
}

/** A live worker of a NATS namespace. */
export interface WorkerView {
  id: string;
  agents: string[];
  graph: string;
  /** What it runs now, when it says. */
  load?: unknown;
}

/**
 * Where the dashboard reads runs and acts on them: a runs folder (with the runs this process
 * hosts), or a NATS namespace. Each goes through the runtime's ports (`RunStore`, run handles,
 * the control socket, the NATS records and event streams), never a copy of their logic.
 *
 * Contract: methods reject with a `DashboardError` (`unknown_run`, `stale_request`, `run_ended`,
 * `no_graph`…) or a runtime `TroupeError` for what the request cannot do, and change nothing then.
 */
export interface RunSource {
  /** `file` or `nats`. */
  readonly kind: 'file' | 'nats';
  /** Names the store (`.troupe/runs`, `namespace "default" on NATS at …`). */
  readonly where: string;
  listRuns(): Promise<RunRecord[]>;
  detail(id: RunId): Promise<RunDetail>;
  /** The run's event log, followed live while the run goes on. */
  feed(id: RunId): Promise<RunFeed>;
  /** An actor's conversation, from its latest checkpoint. */
  messages(id: RunId, path: AgentPath): Promise<Message[]>;
  act(id: RunId, action: RunAction): Promise<void>;
  /** The graph runs are started from, when the dashboard has one. */
  graph(): Promise<GraphView | undefined>;
  /** Starts a run of the graph's entry on `input` (needs a graph file). */
  start(input: string): Promise<RunId>;
  /** The namespace's live workers (NATS only; else none). */
  workers(): Promise<WorkerView[]>;
  close(): Promise<void>;
}
