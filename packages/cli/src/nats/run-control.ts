import { parseRunId, type RunId } from '@troupe/core';
import type { RunRecord } from '@troupe/runtime';
import type { NatsRunStore, NatsTransport } from '@troupe/nats';
import type { CliIo } from '../cli-io.js';
import type { NatsSession } from './nats-session.js';

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
  const { createNatsRunStore, remoteOnlyTransport } = session.nats;
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
 * The fingerprint of the graph run `run` was started with, for the tasks that wake its actors
 * (see `runGraphHash` of `@troupe/nats`), with this command's environment.
 */
export function runGraphHash(session: NatsSession, run: RunRecord, io: CliIo): Promise<string | undefined> {
  return session.nats.runGraphHash(session.resources, session.target.namespace, run, io.env);
}

/** Whether a run's status is final. */
export function isFinal(run: RunRecord): boolean {
  return run.status === 'done' || run.status === 'failed' || run.status === 'aborted';
}

/**
 * Why a control command to one actor of a run failed, for the user: the error, then the actors of
 * the run still running (`…; running: lead, lead/helper#1`), so they see what they could have named.
 */
export async function controlFailure(transport: NatsTransport, runId: RunId, error: unknown): Promise<string> {
  const running = (await transport.records.list(runId)).filter(({ record }) => record.status !== 'ended').map(({ path }) => path);
  return `${error instanceof Error ? error.message : String(error)}${running.length === 0 ? '' : `; running: ${running.join(', ')}`}`;
}
