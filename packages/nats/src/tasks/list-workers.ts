import { Svcm, type ServiceStats } from '@nats-io/services';
import { errors, RequestError, type NatsConnection } from '@nats-io/transport-node';
import { natsNames } from '../connection/nats-names.js';
import type { WorkerLoad } from './worker-load.js';

/** Options of {@link listWorkers}. */
export interface ListWorkersOptions {
  /** How long to wait for the first answer; answers stop being collected after a short silence. Default 2000 ms. */
  maxWaitMs?: number;
}

/**
 * The live workers of `namespace`: asks every `troupe_worker` service on the connection for its
 * stats (NATS service discovery) and keeps those registered for `namespace`, each with the load it
 * reports, sorted by id. A worker whose answer does not look like a worker's load is left out.
 * Resolves with `[]` when no worker runs (the server has no responder) or none answers within
 * `maxWaitMs`.
 */
export async function listWorkers(nc: NatsConnection, namespace: string, options: ListWorkersOptions = {}): Promise<WorkerLoad[]> {
  const names = natsNames(namespace);
  const client = new Svcm(nc).client({ strategy: 'stall', maxWait: options.maxWaitMs ?? 2000 });
  const workers: WorkerLoad[] = [];
  try {
    for await (const stats of await client.stats(names.serviceName)) {
      if (stats.metadata?.['namespace'] !== names.namespace) continue;
      const load = loadOf(stats);
      if (load !== undefined) workers.push(load);
    }
  } catch (error) {
    // No service of that name on the connection at all: the server says so at once.
    if (!(error instanceof errors.NoRespondersError || (error instanceof RequestError && error.isNoResponders()))) throw error;
  }
  return workers.sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
}

const COUNTS = ['running', 'capacity', 'taken', 'ended', 'parked', 'deadLettered'] as const;

/** The load in a worker's stats (its endpoint's `data`), checked field by field. */
function loadOf(stats: ServiceStats): WorkerLoad | undefined {
  const data: unknown = stats.endpoints?.find((endpoint) => endpoint.data !== undefined && endpoint.data !== null)?.data;
  if (typeof data !== 'object' || data === null) return undefined;
  const value = data as Record<string, unknown>;
  if (typeof value['id'] !== 'string' || typeof value['graph'] !== 'string') return undefined;
  if (!Array.isArray(value['agents']) || !value['agents'].every((agent) => typeof agent === 'string')) return undefined;
  if (!COUNTS.every((key) => typeof value[key] === 'number')) return undefined;
  return value as unknown as WorkerLoad;
}
