import { isSnapshotActive, type AgentPath, type RunId } from '@troupe/core';
import { endedResult, type GraphConfig, type RunStore, type SpawnRequest } from '@troupe/runtime';
import type { NatsResources } from '../connection/nats-resources.js';
import { loadSnapshot } from '../store/nats-run-store.js';
import type { NatsTransport } from '../transport/nats-transport.js';
import { traceField } from '../tasks/trace-headers.js';

/** Where a worker restores a parent's local children from, and hosts them. */
export interface LocalChildrenContext {
  graph: GraphConfig;
  resources: NatsResources;
  store: RunStore;
  transport: NatsTransport;
}

/**
 * Before a parent restored from its checkpoint goes on, hosts again the children it ran in its
 * own process (`local` placement) that had not ended, their own local children first, so its
 * delegations re-attach to them rather than start others. A child whose snapshot ended but whose
 * end was never recorded is recorded ended. Each is restored in the trace its record keeps. Remote
 * children are still on the task queue.
 */
export async function restoreLocalChildren(context: LocalChildrenContext, runId: RunId, parent: AgentPath): Promise<void> {
  const { graph, resources, store, transport } = context;
  for (const child of await store.children(runId, parent)) {
    if (child.outcome !== undefined || (graph.agents[child.agent]?.placement ?? 'local') !== 'local') continue;
    const stored = await transport.records.get(runId, child.path);
    if (stored?.record.status === 'ended') continue;
    const snapshot = await loadSnapshot(resources, runId, child.path);
    if (snapshot !== undefined && !isSnapshotActive(snapshot)) {
      await transport.records.end(runId, child.path, { ...child, ...traceField(stored?.record.trace) }, endedResult(runId, snapshot));
      continue;
    }
    await restoreLocalChildren(context, runId, child.path);
    // In the trace its record keeps (hosting it writes its record again).
    const request: SpawnRequest = { runId, path: child.path, agent: child.agent, depth: child.depth, ...traceField(stored?.record.trace) };
    if (snapshot !== undefined) request.snapshot = snapshot;
    else request.input = child.task;
    transport.hosting.host(request);
  }
}
