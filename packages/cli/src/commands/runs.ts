import { createFileRunStore, type RunRecord } from '@troupe/runtime';
import type { CliIo } from '../cli-io.js';
import { ExitCode } from '../exit-code.js';
import { formatCost } from '../view/actor-tree.js';

/** `troupe runs`: every recorded run, oldest first, one line each. */
export async function runsCommand(options: { runsDir: string; json?: boolean }, io: CliIo): Promise<ExitCode> {
  const runs = await createFileRunStore(options.runsDir).listRuns();
  if (options.json === true) {
    for (const run of runs) io.stdout(`${JSON.stringify(run)}\n`);
    return ExitCode.Ok;
  }
  if (runs.length === 0) {
    io.stderr(`troupe: no runs recorded in ${options.runsDir}\n`);
    return ExitCode.Ok;
  }
  const rows = runs.map(describe);
  const header = ['RUN', 'STATUS', 'ENTRY', 'STARTED', 'DURATION', 'TOKENS', 'COST'];
  const widths = header.map((title, i) => Math.max(title.length, ...rows.map((row) => row[i]?.length ?? 0)));
  const line = (cells: string[]): string => `${cells.map((cell, i) => cell.padEnd(widths[i] ?? 0)).join('  ').trimEnd()}\n`;
  io.stdout(line(header));
  for (const row of rows) io.stdout(line(row));
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
