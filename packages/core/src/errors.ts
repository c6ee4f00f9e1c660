/** Stable error codes of the core. Across process boundaries only `{ code, message, data }` travel. */
export const ErrorCode = {
  /**
   * A call that needs an idle agent was made while a run is active (thinking, executing tools or
   * waiting for the user): `prompt`, `continue`, `configure`, `replaceMessages`, `clearMessages`, `reset`.
   */
  AlreadyRunning: 'already_running',
  /** `continue()` was called with no messages. */
  NoMessages: 'no_messages',
  /** `continue()` was called when the last message is an assistant message. */
  InvalidContinue: 'invalid_continue',
  /** A reply or approval was sent while the agent was not waiting for one (or for another call). */
  NotWaiting: 'not_waiting',
  /** A snapshot could not be restored (wrong schema version or shape). */
  InvalidSnapshot: 'invalid_snapshot',
  /** The run was aborted (`abort()`); a message cut short by an abort carries it too. */
  Aborted: 'aborted',
  /** A model call failed and was not (or no longer) retried. */
  ProviderError: 'provider_error',
  /** A tool's definition is unusable (for example its parameters are not a valid JSON Schema). */
  InvalidTool: 'invalid_tool',
  /** A hook threw. */
  HookFailed: 'hook_failed',
  /** The final answer was not JSON matching the agent's `outputSchema`, after every retry. */
  InvalidOutput: 'invalid_output',
  /** An input guardrail rejected the prompt (the run's stop reason is `rejected`). */
  InputRejected: 'input_rejected',
  /** An input guardrail threw. */
  GuardrailFailed: 'guardrail_failed',
  /** A `beforeTurn` hook stopped the run (the run's stop reason is `stopped`). */
  Stopped: 'stopped',
  /** An option of an agent is out of range. */
  InvalidOption: 'invalid_option',
  /** A compaction step failed (the cascade went on with the next one). */
  CompactionFailed: 'compaction_failed',
  /** The agent's actor stopped unexpectedly (a bug). */
  Internal: 'internal',
} as const;

/** One of the {@link ErrorCode} values. */
export type ErrorCode = (typeof ErrorCode)[keyof typeof ErrorCode];

/** The plain form of an error that can cross a process boundary or be stored in a snapshot. */
export interface ErrorInfo {
  readonly code: string;
  readonly message: string;
  readonly data?: unknown;
}

/**
 * Base of every error Troupe throws. Carries a stable string `code`, an optional `cause`
 * and optional JSON `data`; `name` is the subclass name.
 */
export class TroupeError extends Error {
  readonly code: string;
  readonly data: unknown;

  constructor(code: string, message: string, options: { cause?: unknown; data?: unknown } = {}) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.name = new.target.name;
    this.code = code;
    this.data = options.data;
  }

  /** The plain `{ code, message, data }` form. */
  toJSON(): ErrorInfo {
    return this.data === undefined ? { code: this.code, message: this.message } : { code: this.code, message: this.message, data: this.data };
  }
}

/** Misuse of an `Agent` (wrong call for its current state). */
export class AgentStateError extends TroupeError {}

/** Turns anything thrown into an {@link ErrorInfo}. */
export function toErrorInfo(error: unknown, fallbackCode: string = ErrorCode.Internal): ErrorInfo {
  if (error instanceof TroupeError) return error.toJSON();
  if (error instanceof Error) return { code: fallbackCode, message: error.message };
  return { code: fallbackCode, message: String(error) };
}
