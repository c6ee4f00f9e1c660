import type { ErrorInfo } from './errors.js';
import type { RunId } from './ids.js';
import type { Message } from './messages.js';
import type { Usage } from './usage.js';

/** The top-level states of the agent statechart. */
export type AgentStateName = 'idle' | 'thinking' | 'tool_executing' | 'waiting_user' | 'done' | 'aborted' | 'error';

/**
 * Why a run ended:
 * `stop`/`length` the model finished; `complete` a tool completed the run (task_complete);
 * `refusal` the model refused, or the vendor's content filter stopped its reply;
 * `interrupted` the user denied a call with `deny_interrupt`; `aborted` `abort()` was called;
 * `limit` a configured limit was reached (see `limit`); `rejected` an input guardrail rejected the
 * prompt before any model call (`error.message` says why, `error.data.guardrail` which);
 * `stopped` a `beforeTurn` hook stopped the run (`error.message` is its reason);
 * `error` an unrecoverable failure (see `error`; `invalid_output` when the final answer never
 * matched the `outputSchema`).
 */
export type RunStopReason = 'stop' | 'length' | 'complete' | 'refusal' | 'interrupted' | 'aborted' | 'limit' | 'rejected' | 'stopped' | 'error';

/** Which limit ended a run. */
export interface LimitHit {
  kind: 'maxTurns' | 'maxTokens' | 'maxWallTimeMs' | 'maxCost';
  limit: number;
  actual: number;
}

/** The outcome of one run. Plain JSON. */
export interface AgentResult {
  runId: RunId;
  stopReason: RunStopReason;
  /** The messages this run added to the history, in order. */
  messages: Message[];
  /**
   * The text of the last assistant message that is not a failure: the model's last words, or the
   * notice of the limit that stopped the run.
   */
  text: string;
  /** Model turns this run took. */
  turns: number;
  /** Usage and cost summed over the run's model calls. */
  usage: Usage;
  durationMs: number;
  error?: ErrorInfo;
  limit?: LimitHit;
  /** The value a `complete` control carried, or the parsed final answer of an agent with an `outputSchema`. */
  value?: unknown;
}
