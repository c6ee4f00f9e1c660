import { PERMISSION_DECISIONS, type PermissionDecision } from '@troupe/core';
import type { LogLevel, RunHandle } from '@troupe/runtime';
import type { CliIo } from '../cli-io.js';
import { ExitCode } from '../exit-code.js';
import type { OtelFlags } from '../telemetry/otel-config.js';
import { goOnWithStoredRun } from './stored-run.js';

/** What to tell a waiting run. */
export type Answer = { kind: 'reply'; answer: string; path?: string } | { kind: 'approve'; callId: string; decision: string; path?: string };

/** Options of {@link answerCommand}. */
export interface AnswerOptions {
  runId: string;
  answer: Answer;
  runsDir: string;
  json?: boolean;
  logLevel?: LogLevel;
  /** `--otel`, `--otel-content`: export traces and metrics. */
  telemetry?: OtelFlags;
}

/**
 * `troupe reply` / `troupe approve`: resumes a waiting run from its store (in this process, from
 * the snapshots another process left), delivers the answer to the actor that waits for it, and
 * shows the run until it ends or waits again.
 */
export async function answerCommand(options: AnswerOptions, io: CliIo): Promise<ExitCode> {
  const { answer } = options;
  if (!isKnownDecision(answer, io)) return ExitCode.BadInput;
  return goOnWithStoredRun(
    {
      runId: options.runId,
      at: { runsDir: options.runsDir },
      command: answer.kind,
      ...(options.json === true ? { json: true } : {}),
      ...(options.logLevel === undefined ? {} : { logLevel: options.logLevel }),
      ...(options.telemetry === undefined ? {} : { telemetry: options.telemetry }),
      refuse: (record) => (record.status === 'waiting' ? undefined : 'not waiting for an answer'),
      start: (handle) => deliver(handle, answer),
    },
    io,
  );
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
