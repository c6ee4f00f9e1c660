import { createRuntime, type ActorBuildOptions, type GraphConfig, type Runtime } from '@troupe/runtime';
import type { NatsResources } from '../connection/nats-resources.js';
import { createNatsRunStore } from '../store/nats-run-store.js';
import { graphHash } from '../tasks/graph-hash.js';
import { createNatsTransport, type NatsTransport } from './nats-transport.js';

/** Options of {@link createNatsRuntime}. */
export interface NatsRuntimeOptions extends ActorBuildOptions {
  graph: GraphConfig;
  resources: NatsResources;
  /** Names this process in actor records. */
  hostId: string;
  /** Every agent on workers, the entry included. Default: as each agent's `placement` says. */
  remoteAll?: boolean;
  /** The command that starts a worker for this graph, for the notice of a task no worker takes. */
  workerCommand?: string;
}

/**
 * A runtime whose runs live on NATS, started by this process: runs recorded in the namespace's
 * store, agents placed as the graph says (`placement`), or all on workers with `remoteAll`. `transport()`
 * is the NATS transport once the runtime has built it.
 */
export function createNatsRuntime(options: NatsRuntimeOptions): { runtime: Runtime; transport(): NatsTransport | undefined } {
  const { graph, resources, hostId, remoteAll, workerCommand, ...build } = options;
  const hash = graphHash(graph);
  let transport: NatsTransport | undefined;
  const runtime = createRuntime({
    ...build,
    graph,
    store: createNatsRunStore(resources),
    transport: (parts) =>
      (transport = createNatsTransport({
        ...parts,
        resources,
        graphHash: hash,
        placement: (agent) => (remoteAll === true ? 'remote' : (graph.agents[agent]?.placement ?? 'local')),
        hostId,
        ...(workerCommand === undefined ? {} : { workerCommand }),
      })),
  });
  return { runtime, transport: () => transport };
}
