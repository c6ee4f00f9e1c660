import { TroupeError, type AgentPath, type RunId } from '@troupe/core';
import { failedResult, TransportErrorCode } from '@troupe/runtime';
import { NatsErrorCode } from '../nats-error-code.js';
import type { ActorRecord } from './actor-record.js';
import type { ActorRecords, StoredActorRecord } from './actor-records.js';

/** The actors of a distributed run that a resuming process should take up, and their records. */
export interface Stranded {
  paths: Set<AgentPath>;
  /** Those whose record notes an abort asked for while no process hosted them. */
  aborted: Set<AgentPath>;
}

/**
 * Of a run's actor records, the actors stranded by the death of the process that hosted them
 * itself (the `troupe run` that spawned them `local`): running or waiting, and neither it nor an ancestor
 * task-bound (queued, or hosted for a task: `fromQueue`) (a task delivered again
 * restores its actor's local children with it). Probes each with `hostedOrSilent`: when a live process
 * still answers for one of them, the run is not stranded, and this rejects with
 * `run_still_hosted` naming where.
 */
export async function strandedActors(
  runId: RunId,
  records: readonly StoredActorRecord[],
  hostedOrSilent: (path: AgentPath) => Promise<boolean>,
): Promise<Stranded> {
  const byPath = new Map<string, ActorRecord>(records.map(({ path, record }) => [path, record]));
  const taskBound = (path: string): boolean => {
    const record = byPath.get(path);
    return record !== undefined && (record.status === 'queued' || record.fromQueue === true);
  };
  const candidates = records.filter(
    ({ path, record }) => (record.status === 'running' || record.status === 'waiting') && !selfAndAncestors(path).some(taskBound),
  );
  const answers = await Promise.all(candidates.map(({ path }) => hostedOrSilent(path)));
  const live = candidates.filter((_, index) => answers[index] === true).sort((a, b) => a.path.localeCompare(b.path));
  if (live.length > 0) {
    const where = live.map(({ path, record }) => `${path} on ${record.host ?? 'an unnamed process'}`).join(', ');
    throw new TroupeError(TransportErrorCode.StillHosted, `run ${runId} is still hosted by a live process (${where})`);
  }
  return {
    paths: new Set(candidates.map(({ path }) => path)),
    aborted: new Set(candidates.filter(({ record }) => record.abortRequested === true).map(({ path }) => path)),
  };
}

/** Ends a stranded actor that was not restored (it lost its host before its first checkpoint), so its parent starts it again. */
export async function endLost(records: ActorRecords, runId: RunId, path: AgentPath): Promise<never> {
  const message = `actor ${path} of run ${runId} lost its host before its first checkpoint; it is started again`;
  const stored = await records.get(runId, path);
  if (stored !== undefined) await records.end(runId, path, stored.record, failedResult(runId, { code: NatsErrorCode.HostLost, message }));
  throw new TroupeError(TransportErrorCode.UnknownActor, message);
}

/** `lead/a#1/b#2`, `lead/a#1`, `lead`. */
function selfAndAncestors(path: string): string[] {
  const parts = path.split('/');
  return parts.map((_, index) => parts.slice(0, parts.length - index).join('/'));
}
