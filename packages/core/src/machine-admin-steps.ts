/**
 * What the calls that change an agent from outside a turn do to the statechart's context: replace
 * the history or reset the agent (between runs only: the `Agent` refuses them during a run), and
 * clear the steering and follow-up queues (any time).
 */
import type { Changes } from './machine-steps.js';
import type { AgentMachineEvent } from './machine-types.js';

/** Replaces the history with a copy of the event's messages (the machine appends to its own array); a compacted view of the old one is dropped. */
export function setMessages(c: Changes, event: AgentMachineEvent): void {
  if (event.type !== 'SET_MESSAGES') return;
  c.patch.messages = [...event.messages];
  dropView(c);
}

/** Forgets the compacted view: it indexes into a history that is gone. */
function dropView(c: Changes): void {
  // An absent view means the whole history; the patch needs the key to remove it from the context.
  (c.patch as { view?: unknown }).view = undefined;
}

/**
 * Back to a fresh agent: no history, no queued messages, no remembered permission decisions, no
 * run; a new session. The settings stay (they come from the agent's options).
 */
export function resetContext(c: Changes, event: AgentMachineEvent): void {
  if (event.type !== 'RESET') return;
  Object.assign(c.patch, { messages: [], steering: [], followUps: [], permissions: {}, run: null, pending: null, sessionId: event.sessionId });
  dropView(c);
}

/**
 * Empties a queue. During a run this only drops what has not been delivered yet: a steering
 * message already delivered to a running batch has cancelled its other calls.
 */
export function clearQueues(c: Changes, event: AgentMachineEvent): void {
  if (event.type !== 'CLEAR_QUEUES') return;
  if (event.queue !== 'followUps') c.patch.steering = [];
  if (event.queue !== 'steering') c.patch.followUps = [];
}
