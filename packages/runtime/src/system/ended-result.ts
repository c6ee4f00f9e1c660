import { emptyUsage, snapshotResult, type AgentResult, type AgentSnapshot, type ErrorInfo, type RunId } from '@troupe/core';
import { RunErrorCode } from '../runtime-error-codes.js';

/** The result of an actor that ended with `error` without a run to show for it (refused, dead-lettered). */
export function failedResult(runId: RunId, error: ErrorInfo): AgentResult {
  return { runId, stopReason: 'error', messages: [], text: '', turns: 0, usage: emptyUsage(), durationMs: 0, error };
}

/**
 * The result of the run a snapshot shows ended, for an actor whose end was never recorded (its
 * process died in between); an error result when the snapshot shows no ended run.
 */
export function endedResult(runId: RunId, snapshot: AgentSnapshot): AgentResult {
  return snapshotResult(snapshot) ?? failedResult(runId, { code: RunErrorCode.NoResult, message: `${snapshot.agentPath} has no ended run` });
}
