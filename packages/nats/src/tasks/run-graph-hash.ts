import { loadGraphFile, type Env, type RunRecord } from '@troupe/runtime';
import type { NatsResources } from '../connection/nats-resources.js';
import { graphHash } from './graph-hash.js';
import { listWorkers } from './list-workers.js';

/**
 * The fingerprint of the graph run `run` was started with, for the tasks that wake its actors: from
 * its graph file when this machine can read it, else the one graph the namespace's live workers
 * run. Undefined when neither tells (the file is elsewhere, and no worker or several graphs).
 */
export async function runGraphHash(resources: NatsResources, namespace: string, run: RunRecord, env: Env): Promise<string | undefined> {
  if (run.graphFile !== undefined) {
    try {
      return graphHash(await loadGraphFile(run.graphFile, { env, entry: run.entry }));
    } catch {
      // Not on this machine, or changed since: ask the workers.
    }
  }
  const graphs = new Set((await listWorkers(resources.nc, namespace)).map((worker) => worker.graph));
  return graphs.size === 1 ? [...graphs][0] : undefined;
}
