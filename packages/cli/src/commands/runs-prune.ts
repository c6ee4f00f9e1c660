import { hasEnded, RUN_STATUSES, type RunRecord, type RunStore } from '@troupe/runtime';
import type { CliIo } from '../cli-io.js';
import { ExitCode } from '../exit-code.js';

/** What `troupe runs prune` was asked to do. */
export interface PruneOptions {
  store: RunStore;
  /** Names the store in messages. */
  where: string;
  /** Runs that ended longer ago than this go. */
  olderThanMs: number;
  /** The duration as the user wrote it, for messages. */
  olderThan: string;
  /** Say what would go, delete nothing. */
  dryRun?: boolean;
  /** The time now, in ms since the epoch. Default `Date.now()`. */
  now?: number;
}

/**
 * `troupe runs prune --older-than <duration>`: deletes every run of `store` that ended (done,
 * failed, aborted) longer ago than the duration — never a running, waiting or interrupted one
 * (each record is read again just before it goes) — one line per run on stdout, then what was
 * deleted and what was kept.
 * With `dryRun`, says what it would delete and deletes nothing.
 */
export async function pruneCommand(options: PruneOptions, io: CliIo): Promise<ExitCode> {
  const cutoff = (options.now ?? Date.now()) - options.olderThanMs;
  const runs = await options.store.listRuns();
  const old = runs.filter((run) => hasEnded(run.status) && endOf(run) < cutoff);
  const unended = new Map<string, number>();
  for (const run of runs) if (!hasEnded(run.status)) unended.set(run.status, (unended.get(run.status) ?? 0) + 1);
  const verb = options.dryRun === true ? 'would delete' : 'deleted';
  let deleted = 0;
  for (const run of old) {
    if (options.dryRun !== true) {
      // Read again: a run resumed since it was listed is running now, and stays.
      const current = await options.store.getRun(run.id);
      if (current === undefined || !hasEnded(current.status)) continue;
      await options.store.deleteRun(run.id);
    }
    deleted += 1;
    io.stdout(`${verb} ${run.id} · ${run.status} · ${run.entry} · ended ${stamp(endOf(run))}\n`);
  }
  const why = RUN_STATUSES.flatMap((status) => (unended.has(status) ? [`${unended.get(status)} ${status}`] : [])).join(', ');
  const kept = `${options.dryRun === true ? 'would keep' : 'kept'} ${count(runs.length - deleted)}${why === '' ? '' : ` (${why})`}`;
  io.stdout(
    deleted === 0
      ? `nothing to delete in ${options.where}: no run ended more than ${options.olderThan} ago; ${kept}\n`
      : `${verb} ${count(deleted)} that ended more than ${options.olderThan} ago from ${options.where}; ${kept}\n`,
  );
  return ExitCode.Ok;
}

/** When a run ended; a record that never noted it counts from its start. */
function endOf(run: RunRecord): number {
  return run.endedAt ?? run.startedAt;
}

function stamp(ms: number): string {
  return new Date(ms).toISOString().replace('T', ' ').slice(0, 19);
}

function count(n: number): string {
  return n === 1 ? '1 run' : `${n} runs`;
}
