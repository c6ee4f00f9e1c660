import type { RunRecord, RunStore } from '@troupe/runtime';
import type { CliIo } from '../cli-io.js';
import { ExitCode } from '../exit-code.js';
import { formatCost } from '../view/actor-tree.js';
import { table } from '../view/table.js';

/**
 * `troupe runs`: every run of `store` (a runs directory, or a NATS namespace), oldest first, one
 * line each; `where` names the store in the message saying there is none.
 */
export async function runsCommand(options: { store: RunStore; where: string; json?: boolean }, io: CliIo): Promise<ExitCode> {
  const runs = await options.store.listRuns();
  if (options.json === true) {
    for (const run of runs) io.stdout(`${JSON.stringify(run)}\n`);
    return ExitCode.Ok;
  }
  if (runs.length === 0) {
    io.stderr(`troupe: no runs recorded in ${options.where}\n`);
    return ExitCode.Ok;
  }
  io.stdout(table(['RUN', 'STATUS', 'ENTRY', 'STARTED', 'DURATION', 'TOKENS', 'COST'], runs.map(describe)));
  return ExitCode.Ok;
}

function describe(run: RunRecord): string[] {
  const duration = run.endedAt === undefined ? '-' : `${((run.endedAt - run.startedAt) / 1000).toFixed(2)}s`;
  return [
    run.id,
    run.status,
    run.entry,
    new Date(run.startedAt).toISOString().replace('T', ' ').slice(0, 19),
    duration,
    String(run.usage?.totalTokens ?? 0),
    run.usage === undefined ? '$0.0000' : formatCost(run.usage),
  ];
}
