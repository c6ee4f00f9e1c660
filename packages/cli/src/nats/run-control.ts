import { parseRunId, TroupeError } from '@troupe/core';
import { loadGraphFile, type PendingAt, type RunRecord } from '@troupe/runtime';
import { createNatsRunStore, createNatsTransport, graphHash, listWorkers, type NatsResources, type NatsRunStore, type NatsTransport } from '@troupe/nats';
import type { CliIo } from '../cli-io.js';
import type { NatsSession } from './nats-session.js';
import { CliErrorCode } from '../cli-error-code.js';

/** An actor record of a distributed run, with its path and the revision it was read at. */
export type StoredActorRecord = Awaited<ReturnType<NatsTransport['records']['list']>>[number];

/** What a command needs to act on a run that lives on NATS, from a process that hosts none of it. */
export interface RunControl {
  run: RunRecord;
  store: NatsRunStore;
  /** Reaches the run's actors wherever they live, and reads their records. Hosts nothing. */
  transport: NatsTransport;
}

/**
 * Finds run `runId` in the session's namespace and opens what acts on it. `graph` is the graph's
 * fingerprint, stamped on the tasks that wake an actor put aside (see {@link runGraphHash});
 * commands that wake nothing leave it out. A run that does not exist is printed,
 * `troupe <command>: no run …`, and resolves `undefined` (exit 2).
 */
export async function openRunControl(
  session: NatsSession,
  runId: string,
  io: CliIo,
  command: string,
  graph: (run: RunRecord) => Promise<string | undefined> = async () => '',
): Promise<RunControl | undefined> {
  const store = createNatsRunStore(session.resources);
  const run = await store.getRun(parseRunId(runId));
  if (run === undefined) {
    io.stderr(
      `troupe ${command}: no run ${runId} in namespace "${session.target.namespace}" on NATS at ${session.target.display} (troupe runs ${session.target.flags} lists them)\n`,
    );
    return undefined;
  }
  const hash = await graph(run);
  if (hash === undefined) return undefined;
  return { run, store, transport: remoteOnlyTransport(session.resources, store, hash) };
}

/**
 * The fingerprint of the graph run `run` was started with, for the tasks that wake its actors: from
 * its graph file when this machine can read it, else the one graph the namespace's live workers
 * run. Undefined when neither tells (the file is elsewhere, and no worker or several graphs).
 */
export async function runGraphHash(session: NatsSession, run: RunRecord, io: CliIo): Promise<string | undefined> {
  if (run.graphFile !== undefined) {
    try {
      return graphHash(await loadGraphFile(run.graphFile, { env: io.env, entry: run.entry }));
    } catch {
      // Not on this machine, or changed since: ask the workers.
    }
  }
  const graphs = new Set((await listWorkers(session.resources.nc, session.target.namespace)).map((worker) => worker.graph));
  return graphs.size === 1 ? [...graphs][0] : undefined;
}

/** The actors whose records say they wait for a user, with what for. */
export function waitingOf(records: readonly StoredActorRecord[]): PendingAt[] {
  return records.flatMap(({ path, record }) => (record.status === 'waiting' && record.pending !== undefined ? [{ path, input: record.pending }] : []));
}

/** Whether a run's status is final. */
export function isFinal(run: RunRecord): boolean {
  return run.status === 'done' || run.status === 'failed' || run.status === 'aborted';
}

/**
 * A transport that hosts nothing: it controls actors wherever they live, reads their records, and
 * queues tasks stamped with `graph` (the graph's fingerprint; empty when it queues none).
 */
export function remoteOnlyTransport(resources: NatsResources, store: NatsRunStore, graph: string, hostId = `cli-${process.pid}`): NatsTransport {
  return createNatsTransport({ resources, store, factory: hostsNothing, graphHash: graph, placement: () => 'remote', hostId });
}

function hostsNothing(): never {
  throw new TroupeError(CliErrorCode.HostsNothing, 'this process hosts no actor');
}
