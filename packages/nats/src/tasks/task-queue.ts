import { headers } from '@nats-io/transport-node';
import { TroupeError, type AgentPath, type RunId } from '@troupe/core';
import type { ActorRecord } from '../actors/actor-record.js';
import type { ActorRecords } from '../actors/actor-records.js';
import type { NatsResources } from '../connection/nats-resources.js';
import { NatsErrorCode } from '../nats-error-code.js';
import { DEFAULT_WORKER_COMMAND, watchUntilClaimed } from '../actors/queued-notice.js';
import { encodeTask, GRAPH_HEADER, type Task } from './task.js';
import { stampTrace } from './trace-headers.js';

/** Options of {@link TaskQueue}. */
export interface TaskQueueOptions {
  resources: NatsResources;
  records: ActorRecords;
  /** The fingerprint of the graph this process runs (`graphHash`); empty when it knows none. */
  graph: string;
  /** The command that starts a worker for this graph, shown while a task waits for one. Default {@link DEFAULT_WORKER_COMMAND}. */
  workerCommand?: string;
  onError?: (error: unknown) => void;
}

/**
 * The task queue as one process's transport uses it: tasks go to the subject of their graph's
 * workers (`troupe.<ns>.task.<graph>.<agent>`, see `taskConsumer` for why per graph), stamped with
 * the graph's fingerprint, and a task waiting there can be watched until a worker claims it.
 */
export class TaskQueue {
  readonly #options: TaskQueueOptions;

  constructor(options: TaskQueueOptions) {
    this.#options = options;
  }

  /** The `graph` field of the actor records this process writes (none when it knows no graph). */
  get recordGraph(): Pick<ActorRecord, 'graph'> {
    return this.#options.graph === '' ? {} : { graph: this.#options.graph };
  }

  /**
   * Puts `task` on the queue of graph `graph`'s workers (default: this process's graph),
   * de-duplicated by `id`, its `trace` stamped as the W3C headers (`stampTrace`). Throws
   * `graph_unknown` when no graph is known: no worker would take it.
   */
  async publish(task: Task, id: string, graph = this.#options.graph): Promise<void> {
    const { requests, names } = this.#options.resources;
    if (graph === '')
      throw new TroupeError(
        NatsErrorCode.GraphUnknown,
        `cannot queue a task for ${task.path}: this process does not know which graph it runs (load its graph file)`,
      );
    const stamp = headers();
    stamp.set(GRAPH_HEADER, graph);
    stampTrace(stamp, task.trace);
    await requests.publish(names.taskSubject(graph, task.agent), encodeTask(task), { msgId: id, headers: stamp });
  }

  /** Reports what the actor at `path` (of `agent`), just queued, waits for until a process claims it; returns what stops it. */
  watchUntilClaimed(runId: RunId, path: AgentPath, agent: string, report: (text: string) => void): () => void {
    const { resources, records, graph, workerCommand, onError } = this.#options;
    const wanted = { agent, graph: graph === '' ? undefined : graph, command: workerCommand ?? DEFAULT_WORKER_COMMAND };
    return watchUntilClaimed(runId, path, { resources, records, wanted, report, ...(onError === undefined ? {} : { onError }) });
  }
}
