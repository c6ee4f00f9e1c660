import { PERMISSION_DECISIONS, parseRunId, type PermissionDecision } from '@troupe/core';
import { createFileRunStore, createLogger, createRuntime, type LogLevel, type RunHandle } from '@troupe/runtime';
import type { CliIo } from '../cli-io.js';
import { ExitCode } from '../exit-code.js';
import { driveRun, runsDirFlag } from './drive-run.js';
import { loadGraphOrSay } from './load-graph.js';
import { startMcpServers } from './mcp-servers.js';

/** What to tell a waiting run. */
export type Answer = { kind: 'reply'; answer: string; path?: string } | { kind: 'approve'; callId: string; decision: string; path?: string };

/** Options of {@link answerCommand}. */
export interface AnswerOptions {
  runId: string;
  answer: Answer;
  runsDir: string;
  json?: boolean;
  logLevel?: LogLevel;
}

/**
 * `troupe reply` / `troupe approve`: resumes a waiting run from its store (in this process, from
 * the snapshots another process left), delivers the answer to the actor that waits for it, and
 * shows the run until it ends or waits again.
 */
export async function answerCommand(options: AnswerOptions, io: CliIo): Promise<ExitCode> {
  const { answer } = options;
  if (!isKnownDecision(answer, io)) return ExitCode.BadInput;
  const logger = createLogger({ level: options.logLevel ?? 'warn', destination: { write: io.stderr }, base: { command: answer.kind } });
  const store = createFileRunStore(options.runsDir);
  const runId = parseRunId(options.runId);
  const record = await store.getRun(runId);
  if (record === undefined) {
    io.stderr(`troupe: no run ${options.runId} in ${options.runsDir} (troupe runs lists them)\n`);
    return ExitCode.BadInput;
  }
  if (record.status !== 'waiting') {
    io.stderr(`troupe: run ${record.id} is ${record.status}, not waiting for an answer\n`);
    return ExitCode.BadInput;
  }
  if (record.graphFile === undefined) {
    io.stderr(`troupe: run ${record.id} does not say which graph file it ran\n`);
    return ExitCode.BadInput;
  }
  const graph = await loadGraphOrSay(record.graphFile, io, { entry: record.entry });
  if (graph === undefined) return ExitCode.BadInput;
  const mcp = await startMcpServers(graph, Object.keys(graph.agents), logger, io, answer.kind);
  if (mcp.failed) {
    await mcp.close();
    return ExitCode.RunFailed;
  }
  const runtime = createRuntime({ graph, store, env: io.env, ...(mcp.hub === undefined ? {} : { mcp: mcp.hub }) });
  try {
    const handle = await runtime.resume(runId);
    let undelivered: unknown;
    const start = (): Promise<void> =>
      deliver(handle, answer).catch((error: unknown) => {
        undelivered = error;
        throw error;
      });
    try {
      return await driveRun(handle, { logger, resumeFlags: runsDirFlag(options.runsDir), start, ...(options.json === true ? { json: true } : {}) }, io);
    } catch (error) {
      if (undelivered === undefined) throw error;
      io.stderr(`troupe: ${error instanceof Error ? error.message : String(error)}\n`);
      await store.updateRun(runId, { status: 'waiting' });
      return ExitCode.BadInput;
    }
  } finally {
    await runtime.close();
    await mcp.close();
  }
}

/** Whether an approval's decision is one of the known ones (a reply always is); says so when not. */
export function isKnownDecision(answer: Answer, io: CliIo): boolean {
  if (answer.kind === 'reply' || (PERMISSION_DECISIONS as readonly string[]).includes(answer.decision)) return true;
  io.stderr(`troupe: unknown decision "${answer.decision}": use ${PERMISSION_DECISIONS.join(', ')}\n`);
  return false;
}

function deliver(handle: RunHandle, answer: Answer): Promise<void> {
  return answer.kind === 'reply' ? handle.reply(answer.answer, answer.path) : handle.approve(answer.callId, answer.decision as PermissionDecision, answer.path);
}
