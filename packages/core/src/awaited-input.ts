import type { AgentStateName } from './agent-result.js';
import { AgentStateError, ErrorCode } from './errors.js';
import type { PendingInput } from './machine-types.js';
import { PERMISSION_DECISIONS, type PermissionDecision } from './permissions.js';

/** Throws `not_waiting` unless the agent (in `state`, waiting for `pending`) waits for an answer. */
export function assertAwaitsAnswer(state: AgentStateName, pending: PendingInput | null): void {
  if (state !== 'waiting_user' || pending?.kind !== 'question') {
    throw new AgentStateError(ErrorCode.NotWaiting, 'the agent is not waiting for an answer');
  }
}

/** Throws `not_waiting` unless `decision` is one and the agent (in `state`, waiting for `pending`) waits for a decision on `callId`. */
export function assertAwaitsDecision(state: AgentStateName, pending: PendingInput | null, callId: string, decision: PermissionDecision): void {
  if (!PERMISSION_DECISIONS.includes(decision)) {
    throw new AgentStateError(ErrorCode.NotWaiting, `unknown decision ${JSON.stringify(decision)}: expected ${PERMISSION_DECISIONS.join(', ')}`);
  }
  if (state !== 'waiting_user' || pending?.kind !== 'permission' || pending.callId !== callId) {
    const waiting = pending?.kind === 'permission' ? ` (it is waiting for ${pending.callId})` : '';
    throw new AgentStateError(ErrorCode.NotWaiting, `the agent is not waiting for a decision on ${callId}${waiting}`);
  }
}
