/**
 * What the calls that change an agent from outside a turn do to the statechart's context: replace
 * the history or reset the agent (between runs only: the `Agent` refuses them during a run), and
 * clear the steering and follow-up queues (any time).
 */
import { assertEvent } from 'xstate';
import type { Changes } from './machine-steps.js';
import type { AgentMachineEvent } from './machine-types.js';
import { endsWithReply, type Message } from './messages.js';

/** Replaces the history with a copy of `messages` (the `Agent` appends to its own array); a compacted view of the old one is dropped. */
function replaceHistory(c: Changes, messages: readonly Message[]): void {
  c.out.push({ type: 'history.replace', messages });
  c.patch.historyLength = messages.length;
  c.patch.endsWithReply = endsWithReply(messages);
  dropView(c);
}

/** Replaces the history with the event's messages. */
export function setMessages(c: Changes, event: AgentMachineEvent): void {
  assertEvent(event, 'SET_MESSAGES');
  replaceHistory(c, event.messages);
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
  assertEvent(event, 'RESET');
  Object.assign(c.patch, { steering: [], followUps: [], permissions: {}, run: null, pending: null, sessionId: event.sessionId });
  replaceHistory(c, []);
}

/**
 * Empties a queue. During a run this only drops what has not been delivered yet: a steering
 * message already delivered to a running batch has cancelled its other calls.
 */
export function clearQueues(c: Changes, event: AgentMachineEvent): void {
  assertEvent(event, 'CLEAR_QUEUES');
  if (event.queue !== 'followUps') c.patch.steering = [];
  if (event.queue !== 'steering') c.patch.followUps = [];
}
