import type { AgentPath, RunId } from '@troupe/core';
import type { ActorRecords } from './actor-records.js';
import { listWorkers } from '../tasks/list-workers.js';
import type { NatsResources } from '../connection/nats-resources.js';
import type { WorkerLoad } from '../tasks/worker-load.js';

/** The command shown to start a worker when the caller names none. */
export const DEFAULT_WORKER_COMMAND = 'troupe worker <graph.yaml> --nats <url>';

/** What a queued actor waits for: a worker hosting `agent` of graph `graph`. */
export interface WantedWorker {
  agent: string;
  /** The graph's fingerprint (`graphHash`); undefined when unknown (any graph's worker counts). */
  graph: string | undefined;
  /** The command that starts such a worker (`troupe worker team.yaml --nats …`). */
  command: string;
}

/**
 * Why a task for `wanted.agent` sits on the queue, from the live workers of the namespace: none
 * hosts the agent (`no live worker hosts "researcher"; start one: …`), only workers of other
 * graphs do (another version of the graph file), or those that do are all busy, or are just about
 * to take it.
 */
export function describeQueued(workers: readonly WorkerLoad[], wanted: WantedWorker): string {
  const { agent, graph, command } = wanted;
  const hosting = workers.filter((worker) => worker.agents.includes(agent));
  const right = hosting.filter((worker) => graph === undefined || worker.graph === graph);
  if (right.length === 0) {
    const others = hosting.map((worker) => `${worker.id} runs graph ${worker.graph}`);
    const foreign = others.length === 0 ? '' : ` of this graph (${others.join(', ')}: another graph file, or another version of it)`;
    return `no live worker hosts "${agent}"${foreign}; start one: ${command}`;
  }
  const count = `${right.length} live worker${right.length === 1 ? '' : 's'} host${right.length === 1 ? 's' : ''} "${agent}"`;
  return right.every((worker) => worker.running >= worker.capacity) ? `${count}, all busy` : count;
}

/** How long a spawned task may go unclaimed before the first look at it, and between looks. */
const LOOK_EVERY_MS = 1000;
/** How long one look waits for the workers' answers. */
const DISCOVERY_MS = 500;

/** Options of {@link watchUntilClaimed}. */
export interface QueuedWatchOptions {
  resources: NatsResources;
  records: ActorRecords;
  wanted: WantedWorker;
  /** Gets each new line: what the actor waits for, then who claimed it (the line says `taken by`). */
  report(text: string): void;
  onError?(error: unknown): void;
}

/**
 * Watches the actor at `path`, just put on the task queue, until a process claims it: when it is
 * still unclaimed after a moment, reports what it waits for (`waiting for a worker to take
 * lead/researcher#1: no live worker hosts "researcher"; start one: …`), again whenever that
 * changes, and once it is claimed, by whom (only when it reported a wait). Returns what stops
 * the watch. A task claimed at once costs one actor-record read, no discovery.
 */
export function watchUntilClaimed(runId: RunId, path: AgentPath, options: QueuedWatchOptions): () => void {
  const { resources, records, wanted, report } = options;
  let stopped = false;
  let said: string | undefined;
  let timer: ReturnType<typeof setTimeout> | undefined;
  const look = async (): Promise<void> => {
    const stored = await records.get(runId, path);
    if (stopped) return;
    if (stored !== undefined && stored.record.status !== 'queued') {
      if (said !== undefined && stored.record.host !== undefined) report(`${path} taken by ${stored.record.host}`);
      stopped = true;
      return;
    }
    const workers = await listWorkers(resources.nc, resources.names.namespace, { maxWaitMs: DISCOVERY_MS });
    if (stopped) return;
    const text = `waiting for a worker to take ${path}: ${describeQueued(workers, wanted)}`;
    if (text !== said) report(text);
    said = text;
    timer = setTimeout(run, LOOK_EVERY_MS);
  };
  const run = (): void => {
    look().catch((error: unknown) => {
      // The connection is going away: nothing more to say.
      if (!stopped) options.onError?.(error);
      stopped = true;
    });
  };
  timer = setTimeout(run, LOOK_EVERY_MS);
  return () => {
    stopped = true;
    clearTimeout(timer);
  };
}
