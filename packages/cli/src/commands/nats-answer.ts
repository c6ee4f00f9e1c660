import type { PermissionDecision } from '@troupe/core';
import type { ControlCommand, LogLevel, PendingAt } from '@troupe/runtime';
import type { CliIo } from '../cli-io.js';
import { commandLogger } from '../command-logger.js';
import { ExitCode } from '../exit-code.js';
import { followRun } from '../nats/follow-run.js';
import type { NatsFlags } from '../nats/nats-flags.js';
import { withNatsSession } from '../nats/nats-session.js';
import { isFinal, openRunControl, runGraphHash } from '../nats/run-control.js';
import { isKnownDecision, type Answer } from './answer.js';

/** Options of {@link natsAnswerCommand}. */
export interface NatsAnswerOptions {
  runId: string;
  answer: Answer;
  nats: NatsFlags;
  json?: boolean;
  logLevel?: LogLevel;
}

/**
 * `troupe reply|approve … --nats`: finds the actor of a distributed run that waits for this answer
 * (from the actor records: a question, or the permission request `callId`; the path may be left
 * out when only one actor waits for that kind), sends it there — the transport wakes the actor on
 * a worker when no process hosts it — and follows the run like `troupe watch` until it ends or
 * waits again (exit 3). Nothing or several actors waiting, or a run that has ended, exits 2 and
 * lists what waits.
 */
export function natsAnswerCommand(options: NatsAnswerOptions, io: CliIo): Promise<ExitCode> {
  const { answer } = options;
  if (!isKnownDecision(answer, io)) return Promise.resolve(ExitCode.BadInput);
  const logger = commandLogger(io, options.logLevel ?? 'warn', answer.kind);
  return withNatsSession(options.nats, io, answer.kind, async (session) => {
    const control = await openRunControl(session, options.runId, io, answer.kind, async (run) => {
      const hash = await runGraphHash(session, run, io);
      if (hash === undefined) {
        io.stderr(
          `troupe ${answer.kind}: cannot tell which graph run ${run.id} runs: its graph file ${run.graphFile ?? '(none recorded)'} cannot be loaded here, and the live workers of namespace "${session.target.namespace}" do not run exactly one graph\n`,
        );
      }
      return hash;
    });
    if (control === undefined) return ExitCode.BadInput;
    const { run, transport } = control;
    try {
      if (isFinal(run)) {
        io.stderr(`troupe: run ${run.id} is ${run.status}, not waiting for an answer\n`);
        return ExitCode.BadInput;
      }
      const records = await transport.records.list(run.id);
      const waiting = session.nats.waitingOf(records);
      const candidates = waiting.filter((pending) => awaits(pending, answer));
      const [target, ...others] = candidates;
      if (target === undefined || others.length > 0) {
        const what = answer.kind === 'reply' ? 'an answer' : `a decision on ${answer.callId}`;
        const listed = waiting
          .map(
            ({ path, input }) => `${path} (${input.kind === 'question' ? `question: ${input.question}` : `permission ${input.callId} for ${input.toolName}`})`,
          )
          .join(', ');
        io.stderr(
          target === undefined
            ? `troupe ${answer.kind}: no actor of run ${run.id}${answer.path === undefined ? '' : ` at ${answer.path}`} waits for ${what}; ${listed === '' ? 'nothing waits' : `waiting: ${listed}`}\n`
            : `troupe ${answer.kind}: several actors of run ${run.id} wait for ${what}: ${candidates.map((c) => c.path).join(', ')}; say which path\n`,
        );
        return ExitCode.BadInput;
      }
      const revision = records.find((r) => r.path === target.path)?.revision ?? 0;
      let undelivered: unknown;
      const start = (): Promise<void> =>
        transport.control(run.id, target.path, commandOf(answer)).catch((error: unknown) => {
          undelivered = error;
          throw error;
        });
      try {
        return await followRun(
          session,
          control,
          { logger, start, untilWaiting: true, answered: { path: target.path, revision }, ...(options.json === true ? { json: true } : {}) },
          io,
        );
      } catch (error) {
        if (undelivered === undefined) throw error;
        io.stderr(`troupe ${answer.kind}: ${error instanceof Error ? error.message : String(error)}\n`);
        return ExitCode.BadInput;
      }
    } finally {
      await transport.close();
    }
  });
}

/** Whether `pending` is what `answer` answers (at its path, when given). */
function awaits(pending: PendingAt, answer: Answer): boolean {
  if (answer.path !== undefined && pending.path !== answer.path) return false;
  return answer.kind === 'reply' ? pending.input.kind === 'question' : pending.input.kind === 'permission' && pending.input.callId === answer.callId;
}

function commandOf(answer: Answer): ControlCommand {
  return answer.kind === 'reply'
    ? { type: 'reply', answer: answer.answer }
    : { type: 'approve', callId: answer.callId, decision: answer.decision as PermissionDecision };
}
