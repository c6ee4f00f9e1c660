/**
 * The statechart's context updates, as pure functions of (context, event) → patch + emitted items.
 * The machine wires them to transitions; keeping them here keeps the chart readable.
 *
 * The history array is owned by the machine and appended in place, so a turn costs O(1) in
 * history size rather than a copy of the whole conversation.
 */
import type { AgentResult, LimitHit, RunStopReason } from './agent-result.js';
import type { ErrorInfo } from './errors.js';
import { errorResult, INTERRUPT_EXPLANATION, INTERRUPT_TOOL } from './interrupts.js';
import { limitReached } from './limits.js';
import { textOf, toolCallsOf, type AssistantMessage, type Message, type ToolResultMessage } from './messages.js';
import type { AgentContext, AgentMachineEvent, MachineEmitted, PendingInput, RunState, ToolBatch } from './machine-types.js';
import { addUsage, emptyUsage, type Usage } from './usage.js';

/** A context patch and the items to emit, in order. */
export interface Step {
  patch: Partial<AgentContext>;
  emit: MachineEmitted[];
}

function activeRun(context: AgentContext): RunState {
  if (context.run === null) throw new Error('agent machine: no active run');
  return context.run;
}

function batchOf(run: RunState): ToolBatch {
  if (run.batch === undefined) throw new Error('agent machine: no tool batch');
  return run.batch;
}

/** Starts a run for PROMPT or CONTINUE. The first turn begins on entering `thinking`. */
export function startRun(context: AgentContext, event: Extract<AgentMachineEvent, { type: 'PROMPT' | 'CONTINUE' }>): Step {
  const run: RunState = {
    id: event.runId, startedAt: event.at, startIndex: context.messages.length, turns: 0, usage: emptyUsage(), attempt: 0, compacted: false,
  };
  return { patch: { run, pending: null }, emit: [{ type: 'agent_start' }] };
}

/** Takes messages off a queue: one, or all of them. */
function dequeue(queue: Message[], mode: 'one-at-a-time' | 'all'): { taken: Message[]; rest: Message[] } {
  if (queue.length === 0) return { taken: [], rest: queue };
  return mode === 'all' ? { taken: queue, rest: [] } : { taken: queue.slice(0, 1), rest: queue.slice(1) };
}

/**
 * Begins a turn: counts it, appends the messages that enter the context now (the prompt,
 * steering messages, or a follow-up when the run would otherwise have stopped).
 */
export function beginTurn(context: AgentContext, event: AgentMachineEvent): Step {
  const run = activeRun(context);
  const patch: Partial<AgentContext> = {};
  let incoming: Message[] = [];
  if (event.type === 'PROMPT') {
    incoming = event.messages;
  } else if (context.steering.length > 0) {
    const { taken, rest } = dequeue(context.steering, context.settings.steeringMode);
    incoming = taken;
    patch.steering = rest;
  } else if (context.followUps.length > 0 && context.messages.at(-1)?.role === 'assistant') {
    const { taken, rest } = dequeue(context.followUps, context.settings.followUpMode);
    incoming = taken;
    patch.followUps = rest;
  }
  const turn = run.turns + 1;
  const { retry: _retry, batch: _batch, assistant: _assistant, ...kept } = run;
  patch.run = { ...kept, turns: turn, attempt: 0, compacted: false };
  const emit: MachineEmitted[] = [{ type: 'turn_start', turn }];
  for (const message of incoming) {
    context.messages.push(message);
    emit.push({ type: 'message_start', role: message.role }, { type: 'message_end', role: message.role, message });
  }
  return { patch, emit };
}

/** Records the finished assistant message and its usage. */
export function recordAssistant(context: AgentContext, message: AssistantMessage): Step {
  const run = activeRun(context);
  context.messages.push(message);
  const usage = addUsage(run.usage, message.usage);
  return { patch: { run: { ...run, usage, assistant: message, attempt: 0 } }, emit: [{ type: 'usage', usage: message.usage, total: usage }] };
}

/** Opens the tool batch of the assistant message. */
export function startBatch(context: AgentContext, message: AssistantMessage): Step {
  const run = activeRun(context);
  const batch: ToolBatch = { calls: toolCallsOf(message), results: {}, decisions: {}, suspended: [] };
  return { patch: { run: { ...run, batch } }, emit: [] };
}

/** Stores one finished call (or its suspension / completion). */
export function recordResult(context: AgentContext, event: Extract<AgentMachineEvent, { type: 'TOOL.RESULT' }>): Step {
  const run = activeRun(context);
  const batch = batchOf(run);
  const next: ToolBatch = { ...batch };
  if (event.suspend !== undefined) {
    next.suspended = [...batch.suspended, event.suspend];
  } else {
    next.results = { ...batch.results, [event.result.toolCallId]: event.result };
  }
  if (event.complete !== undefined) next.complete = event.complete;
  return { patch: { run: { ...run, batch: next } }, emit: [] };
}

/** Whether calls of the batch are still without a result. */
export function batchUnfinished(batch: ToolBatch): boolean {
  return batch.calls.some((call) => batch.results[call.id] === undefined);
}

/** Gives every call without a result (and every suspended call) the error result `text`. */
export function fillUnfinished(context: AgentContext, at: number, text: (callId: string) => string): Step {
  const run = activeRun(context);
  const batch = batchOf(run);
  const results = { ...batch.results };
  for (const call of batch.calls) if (results[call.id] === undefined) results[call.id] = errorResult(call, text(call.id), at);
  return { patch: { run: { ...run, batch: { ...batch, results, suspended: [] } } }, emit: [] };
}

/** Error results for every call of a `length`-truncated message. */
export function incompleteBatch(message: AssistantMessage, at: number, text: string): ToolBatch {
  const calls = toolCallsOf(message);
  const results: Record<string, ToolResultMessage> = {};
  for (const call of calls) results[call.id] = errorResult(call, text, at);
  return { calls, results, decisions: {}, suspended: [] };
}

/** The interrupt texts of a `deny_interrupt`: the explanation goes to the denied call. */
export function interruptText(deniedCallId: string | undefined): (callId: string) => string {
  return (callId) => (callId === deniedCallId ? `${INTERRUPT_TOOL}\n\n${INTERRUPT_EXPLANATION}` : INTERRUPT_TOOL);
}

/** Appends the batch's results in the model's call order and ends the turn. */
export function finishBatch(context: AgentContext): Step {
  const run = activeRun(context);
  const batch = batchOf(run);
  const toolResults: ToolResultMessage[] = [];
  for (const call of batch.calls) {
    const result = batch.results[call.id];
    if (result !== undefined) toolResults.push(result);
  }
  for (const result of toolResults) context.messages.push(result);
  return { patch: {}, emit: [turnEnd(run.turns, run.assistant, toolResults)] };
}

/** The `turn_end` event of the current turn. */
export function turnEnd(turn: number, assistant: AssistantMessage | undefined, toolResults: ToolResultMessage[]): MachineEmitted {
  return assistant === undefined ? { type: 'turn_end', turn, toolResults } : { type: 'turn_end', turn, message: assistant, toolResults };
}

/** Applies the user's answer to the first suspended call. */
export function answerQuestion(context: AgentContext, answer: string, at: number): Step {
  const run = activeRun(context);
  const batch = batchOf(run);
  const [first, ...rest] = batch.suspended;
  if (first === undefined) return { patch: {}, emit: [] };
  const result: ToolResultMessage = {
    role: 'toolResult', toolCallId: first.callId, toolName: first.toolName, content: [{ type: 'text', text: answer }], isError: false, timestamp: at,
  };
  const next: ToolBatch = { ...batch, results: { ...batch.results, [first.callId]: result }, suspended: rest };
  return { patch: { run: { ...run, batch: next } }, emit: [] };
}

/** What `waiting_user` waits for next: the first suspended call's question. */
export function questionPending(batch: ToolBatch): PendingInput | null {
  const first = batch.suspended[0];
  return first === undefined ? null : { kind: 'question', ...first };
}

/** The limit that stops the run before another turn, counting `extra` usage not yet recorded. */
export function limitBeforeNextTurn(context: AgentContext, at: number, extra?: Usage): LimitHit | undefined {
  const run = context.run;
  if (run === null) return undefined;
  const usage = extra === undefined ? run.usage : addUsage(run.usage, extra);
  return limitReached(context.settings.limits, run.turns, usage, at - run.startedAt);
}

/** Marks how the run ends; `agent_end` is emitted on entering the final state. */
export function endRun(context: AgentContext, stopReason: RunStopReason, extra: { error?: ErrorInfo; limit?: LimitHit; value?: unknown } = {}): Step {
  const run = activeRun(context);
  return { patch: { run: { ...run, end: { stopReason, ...extra } }, pending: null }, emit: [] };
}

/** Emits `agent_end` once for a run that has ended and not yet reported it. */
export function reportEnd(context: AgentContext, at: number): Step {
  const run = context.run;
  if (run?.end === undefined || run.reported === true) return { patch: {}, emit: [] };
  return { patch: { run: { ...run, reported: true } }, emit: [{ type: 'agent_end', result: buildResult(context, at) }] };
}

/** The `agent_end` result of the run that just ended. */
export function buildResult(context: AgentContext, at: number): AgentResult {
  const run = activeRun(context);
  const end = run.end ?? { stopReason: 'error' as const };
  const messages = context.messages.slice(Math.min(run.startIndex, context.messages.length));
  let text = '';
  for (let i = messages.length - 1; i >= 0; i--) {
    const message = messages[i];
    if (message?.role === 'assistant') {
      text = textOf(message);
      break;
    }
  }
  const result: AgentResult = { runId: run.id, stopReason: end.stopReason, messages, text, turns: run.turns, usage: run.usage, durationMs: at - run.startedAt };
  if (end.error !== undefined) result.error = end.error;
  if (end.limit !== undefined) result.limit = end.limit;
  if (end.value !== undefined) result.value = end.value;
  return result;
}
