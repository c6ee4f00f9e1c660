import type { RunStopReason } from '@troupe/core';

/** The exit codes of `troupe`. */
export const ExitCode = {
  /** The run finished (`stop`, `length`, `complete`), or help was shown. */
  Ok: 0,
  /**
   * The run ended in an error, hit a limit, was refused by the model or its vendor's content filter,
   * had its input rejected by a guardrail, was stopped by a hook, or was interrupted by a denied
   * permission (watched: also aborted); a worker lost NATS for good.
   */
  RunFailed: 1,
  /**
   * Bad usage or a bad graph file (missing, malformed, unknown model/agent/tool), an unknown run,
   * or a NATS that cannot be reached with the given `--nats…` flags (refused, credentials rejected,
   * a creds/TLS file missing, no JetStream); nothing ran.
   */
  BadInput: 2,
  /** The run waits for a user's answer or approval and nobody could be asked: it is saved, answer it later (also `troupe watch --until-waiting`). */
  Waiting: 3,
  /** Interrupted with Ctrl-C (128 + SIGINT): the run was aborted, or with `--nats` detached from (it goes on). */
  Interrupted: 130,
} as const;

/** One of the {@link ExitCode} values. */
export type ExitCode = (typeof ExitCode)[keyof typeof ExitCode];

/** The exit code for a run that ended with `stopReason`. */
export function exitCodeOf(stopReason: RunStopReason): ExitCode {
  switch (stopReason) {
    case 'stop':
    case 'length':
    case 'complete':
      return ExitCode.Ok;
    case 'aborted':
      return ExitCode.Interrupted;
    case 'error':
    case 'limit':
    case 'refusal':
    case 'rejected':
    case 'stopped':
    case 'interrupted':
      return ExitCode.RunFailed;
  }
}
