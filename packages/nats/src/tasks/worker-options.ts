import type { ActorBuildOptions, GraphConfig, Logger } from '@troupe/runtime';
import type { NatsResources } from '../connection/nats-resources.js';
import type { WorkerLoad } from './worker-load.js';

/**
 * Options of {@link startWorker}. Its `instrumentation` (of `ActorBuildOptions`) follows every actor
 * it hosts, each in the trace context its task carries (the `traceparent`/`tracestate` headers).
 */
export interface WorkerOptions extends ActorBuildOptions {
  resources: NatsResources;
  graph: GraphConfig;
  /** The agents this worker hosts. Default: every agent of the graph. */
  agents?: string[];
  /** The most tasks it runs at once. Default 16. */
  concurrency?: number;
  /** How long a task may go without a heartbeat before it is redelivered elsewhere. Default 30 s. */
  ackWaitMs?: number;
  /** Deliveries of a task before it goes to the dead-letter subject. Default 5. */
  maxDeliver?: number;
  /** Names the worker in logs, records and service discovery. Default: a random id. */
  id?: string;
  /** The command that starts a worker for this graph, shown while a task of a delegation here waits for one. */
  workerCommand?: string;
  /** Gets `worker started`/`stopped` and, at info, every task taken and ended (run id, actor path, agent, duration, outcome). */
  logger?: Logger;
}

/** A running worker. */
export interface Worker {
  readonly id: string;
  load(): WorkerLoad;
  /**
   * Stops taking tasks, lets running ones finish for up to `graceMs` (default 30 s), then puts
   * the rest back on the queue at their last checkpoint for another worker, and stops.
   */
  stop(graceMs?: number): Promise<void>;
}
