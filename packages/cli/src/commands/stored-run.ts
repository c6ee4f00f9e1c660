import { parseRunId } from '@troupe/core';
import { createFileRunStore, createLogger, createRuntime, type LogLevel, type RunHandle, type RunRecord } from '@troupe/runtime';
import type { CliIo } from '../cli-io.js';
import { ExitCode } from '../exit-code.js';
import { driveRun, runsDirFlag } from './drive-run.js';
import { loadGraphOrSay } from './load-graph.js';
import { startMcpServers } from './mcp-servers.js';

/** Options of {@link goOnWithStoredRun}. */
export interface StoredRunOptions {
  runId: string;
  runsDir: string;
  /** The command's name, in logs and messages. */
  command: string;
  json?: boolean;
  logLevel?: LogLevel;
  /** Why the command cannot go on with this run (its status), or undefined when it can. */
  refuse(record: RunRecord): string | undefined;
  /** Acts on the resumed run once it is shown (delivers an answer); when it fails the run is left as it was, exit 2. */
  start?(handle: RunHandle): Promise<void>;
}

/**
 * Goes on with a run recorded in a runs directory, in this process: loads the graph file the run
 * ran, restores every actor that had not ended from its latest snapshot (`Runtime.resume`), and
 * shows the run until it ends or waits again, as `troupe run` does. An unknown run, a run the
 * command refuses, or a graph file that no longer loads exits 2.
 */
export async function goOnWithStoredRun(options: StoredRunOptions, io: CliIo): Promise<ExitCode> {
  const logger = createLogger({ level: options.logLevel ?? 'warn', destination: { write: io.stderr }, base: { command: options.command } });
  const store = createFileRunStore(options.runsDir);
  const runId = parseRunId(options.runId);
  const record = await store.getRun(runId);
  if (record === undefined) {
    io.stderr(`troupe: no run ${options.runId} in ${options.runsDir} (troupe runs lists them)\n`);
    return ExitCode.BadInput;
  }
  const refused = options.refuse(record);
  if (refused !== undefined) {
    io.stderr(`troupe: run ${record.id} is ${record.status}, ${refused}\n`);
    return ExitCode.BadInput;
  }
  if (record.graphFile === undefined) {
    io.stderr(`troupe: run ${record.id} does not say which graph file it ran\n`);
    return ExitCode.BadInput;
  }
  const graph = await loadGraphOrSay(record.graphFile, io, { entry: record.entry });
  if (graph === undefined) return ExitCode.BadInput;
  const mcp = await startMcpServers(graph, Object.keys(graph.agents), logger, io, options.command);
  if (mcp.failed) {
    await mcp.close();
    return ExitCode.RunFailed;
  }
  const runtime = createRuntime({ graph, store, env: io.env, ...(mcp.hub === undefined ? {} : { mcp: mcp.hub }) });
  try {
    const handle = await runtime.resume(runId);
    let failedStart: unknown;
    const start = options.start === undefined ? undefined : (): Promise<void> =>
      (options.start?.(handle) ?? Promise.resolve()).catch((error: unknown) => {
        failedStart = error;
        throw error;
      });
    try {
      return await driveRun(handle, { logger, resumeFlags: runsDirFlag(options.runsDir), ...(start === undefined ? {} : { start }), ...(options.json === true ? { json: true } : {}) }, io);
    } catch (error) {
      if (failedStart === undefined) throw error;
      io.stderr(`troupe: ${error instanceof Error ? error.message : String(error)}\n`);
      await store.updateRun(runId, { status: record.status });
      return ExitCode.BadInput;
    }
  } finally {
    await runtime.close();
    await mcp.close();
  }
}
