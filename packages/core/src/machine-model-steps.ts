/**
 * The steps of the statechart's transitions that answer the model effect: a finished reply (tool
 * calls, text, a truncated reply, an error), a failed call (retry, compaction, error) and a
 * compaction's outcome. See `Changes` for how a step adds to a transition.
 */
import { assertEvent } from 'xstate';
import { ErrorCode } from './errors.js';
import {
  appendMessage,
  endAtLimit,
  endRun,
  endTurn,
  finishBatch,
  limitBeforeNextTurn,
  recordAssistant,
  startBatch,
  truncatedBatch,
  type Step,
} from './machine-steps.js';
import { addUsage } from './usage.js';
import { NO_PATH, NO_RUN, NO_TS } from './unstamped-event.js';

/** A reply with tool calls: recorded, and its calls become the turn's batch. */
export const toolTurn: Step = (c, e) => {
  assertEvent(e, 'MODEL.DONE');
  const { message } = e;
  recordAssistant(c, message);
  startBatch(c, message);
};

/** A reply's tool calls were cut off by the output limit: each gets an error result. */
export const truncated: Step = (c, e) => {
  assertEvent(e, 'MODEL.DONE');
  const { message } = e;
  recordAssistant(c, message);
  truncatedBatch(c, message, e.at);
  finishBatch(c);
};

/** A text-only reply ends the turn. */
export const textTurn: Step = (c, e) => {
  assertEvent(e, 'MODEL.DONE');
  recordAssistant(c, e.message);
  endTurn(c, []);
};

/** The run stops before another turn: at a limit if one is reached, else as a final answer would. */
export const stopAtLimit: Step = (c, e) => {
  const limit = limitBeforeNextTurn(c.context, c.run, e.at);
  if (limit === undefined) endRun(c, { stopReason: 'stop' });
  else endAtLimit(c, limit, e.at);
};

/**
 * A reply that ended in error (or aborted) ends the run in error.
 *
 * A failed reply is kept in the history (its tokens count) and left out of what the model is sent
// next (see `inModelContext`), so `continue()` can try again.
 */
export const replyError: Step = (c, e) => {
  assertEvent(e, 'MODEL.DONE');
  const { message } = e;
  recordAssistant(c, message);
  endTurn(c, []);
  endRun(c, { stopReason: 'error', error: { code: ErrorCode.ProviderError, message: message.errorMessage ?? `the model stopped with ${message.stopReason}` } });
};

/** The model call failed for good: the failure is recorded and ends the run in error. */
export const modelFailed: Step = (c, e) => {
  assertEvent(e, 'MODEL.FAILED');
  const { error, message } = e;
  appendMessage(c, message);
  c.edit({ assistant: message });
  endTurn(c, []);
  endRun(c, { stopReason: 'error', error: { code: ErrorCode.ProviderError, message: error.message, data: error } });
};

/** The model call failed and the retry strategy tries again after `retryInMs`. */
export const scheduleRetry: Step = (c, e) => {
  assertEvent(e, 'MODEL.FAILED');
  const { retryInMs = 0, error } = e;
  const attempt = c.run.attempt + 1;
  c.edit({ attempt, retry: { delayMs: retryInMs, until: e.at + retryInMs, error } });
  c.out.push({ type: 'retry', attempt, delayMs: retryInMs, error, runId: NO_RUN, agentPath: NO_PATH, seq: 0, ts: NO_TS });
};

/** A restored retry waits only for the time left (XState does not re-arm delays it restores). */
export const rearmRetry: Step = (c, e) => {
  const retry = c.run.retry;
  if (retry !== undefined) c.edit({ retry: { ...retry, delayMs: Math.max(0, retry.until - e.at) } });
};

/** Compacts the context before the next call: after an overflow, or when it is over the threshold. */
export function requestCompaction(reason: 'threshold' | 'overflow'): Step {
  return (c) => {
    c.edit(reason === 'overflow' ? { compacted: true } : { precompacted: true });
    c.out.push({ type: 'cmd.compact', request: c.nextRequest(), reason });
  };
}

/** A restored `compacting` state compacts again, for the reason it was compacting. */
export const resumeCompaction: Step = (c, e) => requestCompaction(c.run.compacted ? 'overflow' : 'threshold')(c, e);

/** The history stays whole: only the view the model is sent changes. */
export const compacted: Step = (c, e) => {
  assertEvent(e, 'COMPACTED');
  const { view, compaction, usage } = e;
  if (view !== undefined) c.patch.view = view;
  c.out.push({ type: 'compaction', ...compaction, runId: NO_RUN, agentPath: NO_PATH, seq: 0, ts: NO_TS });
  if (usage !== undefined && usage.totalTokens + usage.cost.total > 0) {
    const total = addUsage(c.run.usage, usage);
    c.edit({ usage: total });
    c.out.push({ type: 'usage', usage, total, runId: NO_RUN, agentPath: NO_PATH, seq: 0, ts: NO_TS });
  }
};
