/**
 * How a run ends besides the loop's own course, as steps of the statechart's transitions: a final
 * answer checked against the output schema (its value kept, or asked for again, or the run failed),
 * the input guardrails' verdict, and a `beforeTurn` hook that stops the run.
 */
import { assertEvent } from 'xstate';
import { ErrorCode } from './errors.js';
import { endRun, type Step } from './machine-steps.js';
import { NO_PATH, NO_RUN, NO_TS } from './unstamped-event.js';

/** A final answer ends the run; with an output schema its parsed value is the run's value. */
export const stop: Step = (c, e) => {
  assertEvent(e, 'MODEL.DONE');
  const { message, output } = e;
  endRun(c, { stopReason: message.stopReason === 'length' ? 'length' : 'stop', ...(output?.ok === true ? { value: output.value } : {}) });
};

/** A final answer that does not match the output schema: the next turn asks again, saying why. */
export const askOutputAgain: Step = (c, e) => {
  assertEvent(e, 'MODEL.DONE');
  const { output } = e;
  c.edit({ outputAttempts: (c.run.outputAttempts ?? 0) + 1, outputProblem: output?.ok === false ? output.problem : 'it is not valid JSON' });
};

/** A final answer that does not match the output schema, with no retry left: the run fails. */
export const invalidOutput: Step = (c, e) => {
  assertEvent(e, 'MODEL.DONE');
  const { output } = e;
  const attempts = (c.run.outputAttempts ?? 0) + 1;
  const problem = output?.ok === false ? output.problem : 'it is not valid JSON';
  endRun(c, {
    stopReason: 'error',
    error: {
      code: ErrorCode.InvalidOutput,
      message: `no acceptable JSON after ${attempts} ${attempts === 1 ? 'attempt' : 'attempts'}: ${problem}`,
      data: { attempts, problem },
    },
  });
};

/** An input guardrail rejected the prompt (or threw): it never enters the history. */
export const rejected: Step = (c, e) => {
  assertEvent(e, 'GUARD.REJECTED');
  const { guardrail, reason, error } = e;
  if (error !== undefined) {
    endRun(c, { stopReason: 'error', error });
    return;
  }
  c.out.push({ type: 'input_rejected', guardrail, reason, runId: NO_RUN, agentPath: NO_PATH, seq: 0, ts: NO_TS });
  endRun(c, { stopReason: 'rejected', error: { code: ErrorCode.InputRejected, message: reason, data: { guardrail } } });
};

/** A `beforeTurn` hook stopped the run: the turn it refused is not counted (its model call never ran). */
export const stoppedByHook: Step = (c, e) => {
  assertEvent(e, 'STOP');
  const { reason } = e;
  c.edit({ turns: Math.max(0, c.run.turns - 1) });
  endRun(c, { stopReason: 'stopped', error: { code: ErrorCode.Stopped, message: reason } });
};

/** The model refused to answer: the run ends with its refusal. */
export const refused: Step = (c) => endRun(c, { stopReason: 'refusal' });
