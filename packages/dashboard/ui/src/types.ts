/** The shapes the API answers with (see @troupe/dashboard's server). */
import type { AgentEvent, ErrorInfo, Message, PendingInput, Usage } from '@troupe/core';

export type { AgentEvent, Message, PendingInput, Usage };

/** A run's record. */
export interface RunRecord {
  id: string;
  entry: string;
  input: string;
  status: 'running' | 'waiting' | 'interrupted' | 'done' | 'failed' | 'aborted';
  startedAt: number;
  endedAt?: number;
  usage?: Usage;
  /** Each actor's latest turn, summed; absent in records of an older troupe. */
  turns?: number;
  error?: ErrorInfo;
  graphFile?: string;
}

/** A run with what it waits for. */
export interface RunDetail {
  run: RunRecord;
  waiting: Array<{ path: string; input: PendingInput }>;
  placements: Record<string, string>;
  host?: string;
}

/** The graph the dashboard starts runs from. */
export interface GraphView {
  file: string;
  entry: string;
  agents: Array<{ name: string; model: string; description?: string; delegates: string[]; placement: string; tools: string[] }>;
  pipelines: Array<{ name: string; steps: string[] }>;
}

/** What `/api/info` says. */
export interface Info {
  kind: 'file' | 'nats';
  where: string;
  graph: GraphView | null;
}

/** A live worker. */
export interface WorkerView {
  id: string;
  agents: string[];
  graph: string;
  load?: unknown;
}

/** An event as the stream carries it: `seq` is its index in the run's log. */
export interface FeedEvent {
  seq: number;
  event: AgentEvent;
}
