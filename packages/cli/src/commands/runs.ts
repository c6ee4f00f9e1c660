import type { Usage } from '@troupe/core';
import type { RunRecord, RunStatus, RunStore } from '@troupe/runtime';
import type { CliIo } from '../cli-io.js';
import { ExitCode } from '../exit-code.js';
import { formatCost } from '../view/actor-tree.js';
import { table } from '../view/table.js';
import { runTurnsOf, runUsageOf } from './run-usage.js';

/** What `troupe runs` lists. */
export interface RunsOptions {
  store: RunStore;
  /** Names the store in the message saying there is no run. */
  where: string;
  /** The flags that reach the store again (` --runs-dir dir`), for the hint about interrupted runs. */
  flags?: string;
  /** Only runs with one of these statuses. */
  status?: readonly RunStatus[];
  /** One JSON record per line instead of the table. */
  json?: boolean;
}

/**
 * `troupe runs`: every run of `store` (a runs directory, or a NATS namespace), or those with one
 * of the `status`es, oldest first, one line each (or one JSON record per line); no run is said on
 * stderr, exit 0. `flags` reach the store again in the hint printed when a run is interrupted.
 */
export async function runsCommand(options: RunsOptions, io: CliIo): Promise<ExitCode> {
  const { status } = options;
  const runs = (await options.store.listRuns()).filter((run) => status === undefined || status.includes(run.status));
  if (options.json === true) {
    for (const run of runs) io.stdout(`${JSON.stringify(run)}\n`);
    return ExitCode.Ok;
  }
  if (runs.length === 0) {
    io.stderr(`troupe: no ${status === undefined ? '' : `${status.join(' or ')} `}runs recorded in ${options.where}\n`);
    return ExitCode.Ok;
  }
  const rows = await Promise.all(
    runs.map(async (run) => {
      // A record from before usage and turns were kept: its events are read once for both.
      const events = run.usage === undefined || run.turns === undefined ? await options.store.readEvents(run.id) : undefined;
      return describe(run, await runUsageOf(options.store, run, events), await runTurnsOf(options.store, run, events));
    }),
  );
  // TURNS last: the columns before it keep their places for whoever reads them by position.
  io.stdout(table(['RUN', 'STATUS', 'ENTRY', 'STARTED', 'DURATION', 'TOKENS', 'COST', 'TURNS'], rows));
  if (runs.some((run) => run.status === 'interrupted'))
    io.stderr(`an interrupted run's process was killed: troupe resume <run>${options.flags ?? ''} goes on with it\n`);
  return ExitCode.Ok;
}

function describe(run: RunRecord, usage: Usage, turns: number): string[] {
  const duration = run.endedAt === undefined ? '-' : `${((run.endedAt - run.startedAt) / 1000).toFixed(2)}s`;
  return [
    run.id,
    run.status,
    run.entry,
    new Date(run.startedAt).toISOString().replace('T', ' ').slice(0, 19),
    duration,
    String(usage.totalTokens),
    formatCost(usage),
    String(turns),
  ];
}
