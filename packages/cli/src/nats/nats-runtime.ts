import { parseAgentPath, type AgentPath, type RunId } from '@troupe/core';
import { createRuntime, type ActorBuildOptions, type GraphConfig, type Runtime } from '@troupe/runtime';
import { createNatsRunStore, createNatsTransport, graphHash, type NatsRunStore, type NatsTransport } from '@troupe/runtime/nats';
import type { NatsSession } from './nats-session.js';
import { remoteOnlyTransport } from './run-control.js';

/** A runtime whose runs live on NATS, started by this process. */
export interface NatsRuntime {
  runtime: Runtime;
  /** Names this process in actor records (`run-<pid>`). */
  hostId: string;
  /**
   * Leaves the run to the workers before this process goes: closes the runtime (the actors it
   * hosts are let go, their checkpoints stay) and queues the run's entry, when it was hosted here
   * and still runs, as a task restored from its last checkpoint on whichever worker hosts its
   * agent. Resolves with the entry's agent when it was handed over. Call once, instead of closing.
   */
  handOver(runId: RunId): Promise<string | undefined>;
}

/**
 * A runtime over NATS for `troupe run --nats`: runs recorded in the namespace's store, agents
 * placed as the graph says (`placement`), or all on workers with `remoteAll` (the entry included).
 */
export function natsRuntime(graph: GraphConfig, session: NatsSession, options: ActorBuildOptions & { remoteAll?: boolean }): NatsRuntime {
  const { remoteAll, ...build } = options;
  const { resources } = session;
  const hash = graphHash(graph);
  const hostId = `run-${process.pid}`;
  const store = createNatsRunStore(resources);
  let transport: NatsTransport | undefined;
  const runtime = createRuntime({
    ...build,
    graph,
    store,
    transport: (parts) =>
      (transport = createNatsTransport({
        ...parts,
        resources,
        graphHash: hash,
        placement: (agent) => (remoteAll === true ? 'remote' : (graph.agents[agent]?.placement ?? 'local')),
        hostId,
      })),
  });
  return {
    runtime,
    hostId,
    handOver: async (runId) => {
      await runtime.close();
      const entry = await entryHostedHere(store, transport, runId, hostId);
      if (entry === undefined) return undefined;
      const snapshot = (await store.loadSnapshots(runId)).find((s) => s.agentPath === entry.path);
      const run = await store.getRun(runId);
      const queue = remoteOnlyTransport(resources, store, hash, hostId);
      try {
        await queue.spawn({ runId, path: entry.path, agent: entry.agent, depth: 0, ...(snapshot === undefined ? { input: run?.input ?? '' } : { snapshot }) });
      } finally {
        await queue.close();
      }
      return entry.agent;
    },
  };
}

/**
 * The run's entry actor when this process hosted it and it is still running (not ended, and not
 * waiting for a user: a waiting actor is woken on a worker by the answer that reaches it).
 */
async function entryHostedHere(store: NatsRunStore, transport: NatsTransport | undefined, runId: RunId, hostId: string): Promise<{ path: AgentPath; agent: string } | undefined> {
  const run = await store.getRun(runId); // also waits for this process's writes of the run
  if (transport === undefined || run === undefined) return undefined;
  const path = parseAgentPath(run.entry);
  const stored = await transport.records.get(runId, path);
  if (stored === undefined || stored.record.host !== hostId || stored.record.status !== 'running') return undefined;
  return { path, agent: stored.record.agent };
}
