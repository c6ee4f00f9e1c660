/**
 * Where an effect's answer sends the statechart. Each function classifies one event once; the
 * machine's guards compare the class, so the chart reads as a table.
 */
import { limitReached } from './limits.js';
import type { AgentContext, AgentMachineEvent } from './machine-types.js';
import { addUsage } from './usage.js';

/** Routes of `MODEL.DONE`. */
export type ReplyRoute =
  | 'stale'
  | 'error'
  | 'refusal'
  | 'tools'
  | 'truncated'
  | 'truncated_limit'
  | 'continue'
  | 'continue_limit'
  | 'done'
  | 'output_retry'
  | 'invalid_output';

/** Routes of `TOOLS.DONE` and of the last answer in `waiting_user`. */
export type BatchRoute = 'stale' | 'waiting' | 'complete' | 'limit' | 'next';

function isCurrent(context: AgentContext, event: AgentMachineEvent): boolean {
  return 'request' in event && event.request === context.request;
}

/**
 * Classifies a finished reply. A reply without tool calls ends the run unless messages are queued
 * or, in task mode, always (only a completing tool, a limit, an abort or a failure end it there).
 * With an output schema, a final answer that does not match it is asked for again while retries
 * remain (`output_retry`), else it fails the run (`invalid_output`).
 */
export function replyRoute(context: AgentContext, event: AgentMachineEvent): ReplyRoute {
  const run = context.run;
  if (event.type !== 'MODEL.DONE' || run === null || !isCurrent(context, event)) return 'stale';
  const message = event.message;
  if (message.stopReason === 'error' || message.stopReason === 'aborted') return 'error';
  if (message.stopReason === 'refusal') return 'refusal';
  const hasCalls = message.content.some((part) => part.type === 'toolCall');
  if (hasCalls && message.stopReason !== 'length') return 'tools';
  const goesOn = hasCalls || context.steering.length > 0 || context.followUps.length > 0 || context.settings.completion === 'task';
  const retryOutput = !goesOn && event.output?.ok === false;
  if (!goesOn && !retryOutput) return 'done';
  if (retryOutput && (run.outputAttempts ?? 0) >= (context.settings.outputRetries ?? 0)) return 'invalid_output';
  const limited = limitReached(context.settings.limits, run.turns, addUsage(run.usage, message.usage), event.at - run.startedAt) !== undefined;
  if (hasCalls) return limited ? 'truncated_limit' : 'truncated';
  if (limited) return 'continue_limit';
  return retryOutput ? 'output_retry' : 'continue';
}

/** Classifies a settled tool batch (or the state after answering a question). */
export function batchRoute(context: AgentContext, event: AgentMachineEvent): BatchRoute {
  const batch = context.run?.batch;
  const run = context.run;
  if (run === null || batch === undefined) return 'stale';
  let suspended = batch.suspended.length;
  let complete = batch.complete !== undefined;
  if (event.type === 'TOOLS.DONE') {
    if (!isCurrent(context, event)) return 'stale';
    suspended += event.suspended.length;
    complete ||= event.complete !== undefined;
  } else if (event.type === 'REPLY' && context.pending?.kind === 'question') {
    suspended -= 1; // this answer settles the first question
  } else {
    return 'stale';
  }
  if (suspended > 0) return 'waiting';
  if (complete) return 'complete';
  return limitReached(context.settings.limits, run.turns, run.usage, event.at - run.startedAt) === undefined ? 'next' : 'limit';
}
