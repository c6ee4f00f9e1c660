import type { Usage } from '@troupe/core';
import type { RunRecord, RunStore } from '@troupe/runtime';
import type { CliIo } from '../cli-io.js';
import { ExitCode } from '../exit-code.js';
import { formatCost } from '../view/actor-tree.js';
import { table } from '../view/table.js';
import { runUsageOf } from './run-usage.js';

/**
 * `troupe runs`: every run of `store` (a runs directory, or a NATS namespace), oldest first, one
 * line each; `where` names the store in the message saying there is none, `flags` reach it again
 * in the hint printed when a run is interrupted.
 */
export async function runsCommand(options: { store: RunStore; where: string; flags?: string; json?: boolean }, io: CliIo): Promise<ExitCode> {
  const runs = await options.store.listRuns();
  if (options.json === true) {
    for (const run of runs) io.stdout(`${JSON.stringify(run)}\n`);
    return ExitCode.Ok;
  }
  if (runs.length === 0) {
    io.stderr(`troupe: no runs recorded in ${options.where}\n`);
    return ExitCode.Ok;
  }
  const rows = await Promise.all(runs.map(async (run) => describe(run, await runUsageOf(options.store, run))));
  io.stdout(table(['RUN', 'STATUS', 'ENTRY', 'STARTED', 'DURATION', 'TOKENS', 'COST'], rows));
  if (runs.some((run) => run.status === 'interrupted')) io.stderr(`an interrupted run's process was killed: troupe resume <run>${options.flags ?? ''} goes on with it\n`);
  return ExitCode.Ok;
}

function describe(run: RunRecord, usage: Usage): string[] {
  const duration = run.endedAt === undefined ? '-' : `${((run.endedAt - run.startedAt) / 1000).toFixed(2)}s`;
  return [
    run.id,
    run.status,
    run.entry,
    new Date(run.startedAt).toISOString().replace('T', ' ').slice(0, 19),
    duration,
    String(usage.totalTokens),
    formatCost(usage),
  ];
}
