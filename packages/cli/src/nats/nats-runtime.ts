import { parseAgentPath, type AgentPath, type RunId } from '@troupe/core';
import type { ActorBuildOptions, GraphConfig, RunHandle, Runtime } from '@troupe/runtime';
import type { NatsRunStore, NatsTransport } from '@troupe/nats';
import type { CliIo } from '../cli-io.js';
import { ExitCode } from '../exit-code.js';
import type { NatsSession } from './nats-session.js';
import { workerCommandFor } from './worker-hint.js';

/** A runtime whose runs live on NATS, started by this process. */
export interface NatsRuntime {
  runtime: Runtime;
  /** Names this process in actor records (`run-<pid>`). */
  hostId: string;
  /**
   * Once the run is shown and `code` says how that ended: hands the run over (and says so) when
   * it goes on without this process — it was left waiting (exit 3) or detached from (130) —
   * else closes the runtime. Call once, instead of closing.
   */
  leave(handle: RunHandle, code: ExitCode, io: CliIo): Promise<void>;
}

/**
 * A runtime over NATS for `troupe run|resume --nats`: runs recorded in the namespace's store, agents
 * placed as the graph says (`placement`), or all on workers with `remoteAll` (the entry included).
 */
export function natsRuntime(graph: GraphConfig, session: NatsSession, options: ActorBuildOptions & { remoteAll?: boolean }): NatsRuntime {
  const { remoteAll, ...build } = options;
  const { resources } = session;
  const { createNatsRunStore, createNatsRuntime, graphHash, remoteOnlyTransport } = session.nats;
  const hash = graphHash(graph);
  const hostId = `run-${process.pid}`;
  const store = createNatsRunStore(resources);
  const nats = createNatsRuntime({
    ...build,
    graph,
    resources,
    hostId,
    ...(remoteAll === true ? { remoteAll } : {}),
    workerCommand: workerCommandFor(graph.file, session.target),
  });
  const { runtime } = nats;
  /**
   * Leaves the run to the workers before this process goes: closes the runtime (the actors it
   * hosts are let go, their checkpoints stay) and queues the run's entry, when it was hosted here
   * and still runs, as a task restored from its last checkpoint on whichever worker hosts its
   * agent. Resolves with the entry's agent when it was handed over.
   */
  const handOver = async (runId: RunId): Promise<string | undefined> => {
    await runtime.close();
    const entry = await entryHostedHere(store, nats.transport(), runId, hostId);
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
  };
  return {
    runtime,
    hostId,
    leave: async (handle, code, io) => {
      if (code !== ExitCode.Interrupted && code !== ExitCode.Waiting) return runtime.close();
      await handOver(handle.id).then(
        (agent) => agent !== undefined && io.stderr(`troupe: ${handle.entry} goes on on a worker hosting agent "${agent}"\n`),
        (error: unknown) =>
          io.stderr(`troupe: ${handle.entry} could not be handed over to the workers: ${error instanceof Error ? error.message : String(error)}\n`),
      );
    },
  };
}

/**
 * The run's entry actor when this process hosted it and it is still running (not ended, and not
 * waiting for a user: a waiting actor is woken on a worker by the answer that reaches it).
 */
async function entryHostedHere(
  store: NatsRunStore,
  transport: NatsTransport | undefined,
  runId: RunId,
  hostId: string,
): Promise<{ path: AgentPath; agent: string } | undefined> {
  const run = await store.getRun(runId); // also waits for this process's writes of the run
  if (transport === undefined || run === undefined) return undefined;
  const path = parseAgentPath(run.entry);
  const stored = await transport.records.get(runId, path);
  if (stored === undefined || stored.record.host !== hostId || stored.record.status !== 'running') return undefined;
  return { path, agent: stored.record.agent };
}
