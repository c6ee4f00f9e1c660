import { PERMISSION_DECISIONS, type PermissionDecision } from '@troupe/core';
import { DashboardError, DashboardErrorCode } from '../dashboard-error.js';
import type { RunAction } from '../sources/run-source.js';

/** The action a POST body asks for; `bad_request` naming what is wrong when it is none. */
export function parseAction(body: unknown): RunAction {
  if (typeof body !== 'object' || body === null) throw bad('the body must be a JSON object');
  const { type, path, callId, decision, answer, message } = body as Record<string, unknown>;
  if (path !== undefined && (typeof path !== 'string' || path === '')) throw bad('path must be a non-empty string');
  const at = path === undefined ? {} : { path };
  switch (type) {
    case 'approve':
      if (typeof callId !== 'string' || callId === '') throw bad('an approval needs its callId');
      if (typeof decision !== 'string' || !(PERMISSION_DECISIONS as readonly string[]).includes(decision))
        throw bad(`decision must be one of ${PERMISSION_DECISIONS.join(', ')}`);
      return { type, callId, decision: decision as PermissionDecision, ...at };
    case 'reply':
      if (typeof answer !== 'string' || answer.trim() === '') throw bad('a reply needs a non-empty answer');
      return { type, answer, ...at };
    case 'steer':
    case 'followUp':
      if (typeof message !== 'string' || message.trim() === '') throw bad(`a ${type} needs a non-empty message`);
      return { type, message, ...at };
    case 'abort':
      return { type, ...at };
    default:
      throw bad(`unknown action ${JSON.stringify(type)}: use approve, reply, steer, followUp or abort`);
  }
}

function bad(message: string): DashboardError {
  return new DashboardError(DashboardErrorCode.BadRequest, message);
}
