/**
 * A small NATS deployment for the distributed runtime's tests, all in this process but each part
 * on its own connection as if on its own machine: a real nats-server, workers, and a coordinator
 * runtime whose transport places agents per the graph (or every agent remote). Not a test.
 */
import type { ToolRegistry } from '@troupe/tools';
import { afterAll, afterEach, beforeAll } from 'vitest';
import { createRuntime, type GraphConfig, type Instrumentation, type Runtime } from '@troupe/runtime';
import {
  connectNats,
  createNatsRunStore,
  createNatsTransport,
  graphHash,
  openNatsResources,
  startWorker,
  type NatsResources,
  type Worker,
  type WorkerOptions,
} from '../src/index.js';
import { startNatsServer, type NatsServerProcess } from '../src/testing.js';

let namespaces = 0;

/** A running test deployment. */
export interface Cluster {
  server: NatsServerProcess;
  /** The coordinator's NATS resources. */
  resources: NatsResources;
  runtime: Runtime;
  workers: Worker[];
  /** Starts one more worker (its own connection) on `graph` (default: the cluster's). */
  addWorker(options?: Partial<Omit<WorkerOptions, 'resources'>>): Promise<Worker>;
  /** Starts another coordinator runtime (its own connection) on the same namespace, for another graph. */
  addCoordinator(graph: GraphConfig): Promise<Runtime>;
  /** Makes `worker` vanish as if its machine died: its connection drops, nothing is acked or put back. */
  crash(worker: Worker): Promise<void>;
  close(): Promise<void>;
}

/** Options of {@link startCluster}. */
export interface ClusterOptions {
  graph: GraphConfig;
  tools: ToolRegistry;
  workers?: number;
  /** Every agent on workers, the entry included. Default: as the graph's `placement` says. */
  remoteAll?: boolean;
  worker?: Partial<Omit<WorkerOptions, 'resources' | 'graph'>>;
  /** Reuse a running server (default: start one, stopped by close()). */
  server?: NatsServerProcess;
  /** The coordinator runtime's instrumentation (a worker's goes in `worker`). */
  instrumentation?: Instrumentation;
}

/** Starts a server (unless given), `workers` workers and a coordinator runtime, in a fresh namespace. */
export async function startCluster(options: ClusterOptions): Promise<Cluster> {
  const { graph, tools } = options;
  const server = options.server ?? (await startNatsServer());
  const namespace = `t${process.pid}_${++namespaces}`;
  const resources = await openNatsResources(await connectNats({ servers: server.url }), { namespace });
  const opened: NatsResources[] = [resources];
  const workers: Worker[] = [];
  const connections = new Map<Worker, NatsResources>();
  const addWorker = async (extra: Partial<Omit<WorkerOptions, 'resources'>> = {}): Promise<Worker> => {
    const own = await openNatsResources(await connectNats({ servers: server.url }), { namespace });
    opened.push(own);
    const worker = await startWorker({ graph, tools, ackWaitMs: 5000, ...options.worker, ...extra, resources: own });
    workers.push(worker);
    connections.set(worker, own);
    return worker;
  };
  for (let i = 0; i < (options.workers ?? 1); i++) await addWorker();
  const coordinator = (on: GraphConfig, own: NatsResources, hostId: string): Runtime =>
    createRuntime({
      graph: on,
      tools,
      ...(options.instrumentation === undefined ? {} : { instrumentation: options.instrumentation }),
      store: createNatsRunStore(own),
      transport: (parts) =>
        createNatsTransport({
          ...parts,
          resources: own,
          graphHash: graphHash(on),
          placement: (agent) => (options.remoteAll === true ? 'remote' : (on.agents[agent]?.placement ?? 'local')),
          hostId,
          workerCommand: `troupe worker ${on.file} --namespace ${namespace}`,
        }),
    });
  const runtime = coordinator(graph, resources, 'coordinator');
  const runtimes: Runtime[] = [runtime];
  return {
    server,
    resources,
    runtime,
    workers,
    addWorker,
    addCoordinator: async (other) => {
      const own = await openNatsResources(await connectNats({ servers: server.url }), { namespace });
      opened.push(own);
      const added = coordinator(other, own, `coordinator-${runtimes.length + 1}`);
      runtimes.push(added);
      return added;
    },
    crash: async (worker) => {
      await connections.get(worker)?.nc.close();
      await worker.stop(0).catch(() => undefined);
      workers.splice(workers.indexOf(worker), 1);
    },
    close: async () => {
      await Promise.all(runtimes.map((r) => r.close()));
      await Promise.all(workers.map((w) => w.stop(0)));
      await Promise.all(opened.map((r) => r.nc.close()));
      if (options.server === undefined) await server.stop();
    },
  };
}

/**
 * Gives the calling test file one nats-server for all its tests, and each test the clusters it
 * starts on it, closed after the test whatever happened. Call it at the top of the file.
 */
export function useClusters(): (options: Omit<ClusterOptions, 'server'>) => Promise<Cluster> {
  let server: NatsServerProcess | undefined;
  const started: Cluster[] = [];
  beforeAll(async () => {
    server = await startNatsServer();
  });
  afterEach(async () => {
    await Promise.all(started.splice(0).map((cluster) => cluster.close()));
  });
  afterAll(async () => {
    await server?.stop();
  });
  return async (options) => {
    if (server === undefined) throw new Error('useClusters: the server is not started yet (call it at the top of the file)');
    const cluster = await startCluster({ ...options, server });
    started.push(cluster);
    return cluster;
  };
}
