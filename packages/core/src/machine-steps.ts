/**
 * What each transition of the statechart does to the context, as plain functions over a
 * {@link Changes} accumulator: one context patch and one ordered list of outputs per transition
 * (a single assign and a single emit keep XState's per-event work small).
 *
 * The history is not in the context: a step that adds a message puts a `history.append` in the
 * outputs (the `Agent` appends it to the array it owns) and counts it in `historyLength`, so a turn
 * costs what it adds, never a copy of the conversation, and the machine stays a pure function of
 * its context and the event.
 */
import type { LimitHit } from './agent-result.js';
import { assertEvent } from 'xstate';
import { errorResult, INCOMPLETE_TOOL_CALL, TASK_REMINDER } from './interrupts.js';
import { limitNotice, limitReached } from './limits.js';
import { inModelContext, toolCallsOf, type AssistantMessage, type Message, type ToolResultMessage } from './messages.js';
import type { AgentContext, AgentMachineEvent, BatchOutcome, MachineOutput, PendingInput, RunEnd, RunState, ToolBatch } from './machine-types.js';
import { retryInstruction } from './structured-output.js';
import { addUsage, emptyUsage } from './usage.js';
import { withFields } from './with-fields.js';
import { NO_PATH, NO_RUN, NO_TS } from './unstamped-event.js';

/** The context patch and outputs of one transition, built up by the step functions below. */
export class Changes {
  readonly context: AgentContext;
  readonly patch: Partial<AgentContext> = {};
  readonly out: MachineOutput[] = [];

  constructor(context: AgentContext) {
    this.context = context;
  }

  /** The run as patched so far. */
  get run(): RunState {
    const run = this.patch.run ?? this.context.run;
    if (run === null || run === undefined) throw new Error('agent machine: no active run');
    return run;
  }

  /** Replaces the run. */
  set run(run: RunState) {
    this.patch.run = run;
    this.#batchCopied = false;
  }

  get batch(): ToolBatch {
    const batch = this.run.batch;
    if (batch === undefined) throw new Error('agent machine: no tool batch');
    return batch;
  }

  /** Replaces the batch. */
  set batch(batch: ToolBatch) {
    this.edit({ batch });
    this.#batchCopied = true;
  }

  #batchCopied = false;

  /** Changes fields of the run; the context's run is copied once per transition, never mutated. */
  edit(fields: Partial<RunState>): RunState {
    let run = this.patch.run;
    if (run === undefined || run === null) {
      run = withFields(this.run, {});
      this.patch.run = run;
    }
    return Object.assign(run, fields);
  }

  /** Changes fields of the batch, copying it once per transition. */
  editBatch(fields: Partial<ToolBatch>): ToolBatch {
    if (!this.#batchCopied) this.batch = withFields(this.batch, {});
    return Object.assign(this.batch, fields);
  }

  /** The history's length as patched so far. */
  get historyLength(): number {
    return this.patch.historyLength ?? this.context.historyLength;
  }

  /** Whether the history as patched so far ends (for the model) with an assistant reply. */
  get endsWithReply(): boolean {
    return this.patch.endsWithReply ?? this.context.endsWithReply;
  }

  /** Asks for `message` to be appended to the history and counts it. */
  append(message: Message): void {
    this.out.push({ type: 'history.append', message });
    this.patch.historyLength = this.historyLength + 1;
    if (inModelContext(message)) this.patch.endsWithReply = message.role === 'assistant';
  }

  /** Sets a request id for an effect command and returns it. */
  nextRequest(): number {
    const request = (this.patch.request ?? this.context.request) + 1;
    this.patch.request = request;
    return request;
  }
}

/** One step of a transition: reads the event, adds to the changes. */
export type Step = (c: Changes, event: AgentMachineEvent) => void;

/** Starts a run for PROMPT or CONTINUE. */
export function startRun(c: Changes, event: AgentMachineEvent): void {
  assertEvent(event, ['PROMPT', 'CONTINUE']);
  c.run = { id: event.runId, startedAt: event.at, startIndex: c.historyLength, turns: 0, usage: emptyUsage(), attempt: 0, compacted: false };
  c.patch.pending = null;
  c.out.push({ type: 'agent_start', sessionId: c.context.sessionId ?? '', runId: NO_RUN, agentPath: NO_PATH, seq: 0, ts: NO_TS });
}

/** Holds a guarded prompt and asks the guard effect to check it (also after a restore). */
export function requestGuard(c: Changes, event: AgentMachineEvent): void {
  const messages = event.type === 'PROMPT' ? event.messages : (c.run.input ?? []);
  c.edit({ input: messages });
  c.out.push({ type: 'cmd.guard', request: c.nextRequest(), messages });
}

function dequeue(queue: Message[], mode: 'one-at-a-time' | 'all'): { taken: Message[]; rest: Message[] } {
  return mode === 'all' ? { taken: queue, rest: [] } : { taken: queue.slice(0, 1), rest: queue.slice(1) };
}

/**
 * Begins a turn: counts it, appends the messages that enter the context now (the prompt, as the
 * guardrails passed it; the request to answer again after a final answer that did not match the
 * output schema; steering messages; a follow-up when the run would otherwise have stopped; or in
 * task mode the reminder after a reply without tool calls), and asks the model (after the step
 * delay, from the run's second turn on).
 */
export function beginTurn(c: Changes, event: AgentMachineEvent): void {
  const { context } = c;
  const { settings } = context;
  let incoming: Message[] = [];
  const afterReply = c.endsWithReply;
  const problem = c.run.outputProblem;
  if (event.type === 'PROMPT' || event.type === 'GUARD.DONE') {
    incoming = event.messages;
  } else if (problem !== undefined) {
    incoming = [{ role: 'user', content: retryInstruction(problem).trim(), timestamp: event.at }];
  } else if (context.steering.length > 0) {
    const { taken, rest } = dequeue(context.steering, settings.steeringMode);
    incoming = taken;
    c.patch.steering = rest;
  } else if (context.followUps.length > 0 && afterReply) {
    const { taken, rest } = dequeue(context.followUps, settings.followUpMode);
    incoming = taken;
    c.patch.followUps = rest;
  } else if (settings.completion === 'task' && afterReply) {
    incoming = [{ role: 'user', content: TASK_REMINDER, timestamp: event.at }];
  }
  const run = nextTurnRun(c.run);
  const turn = run.turns;
  c.run = run;
  c.out.push(
    { type: 'state', state: 'thinking', runId: NO_RUN, agentPath: NO_PATH, seq: 0, ts: NO_TS },
    { type: 'turn_start', turn, runId: NO_RUN, agentPath: NO_PATH, seq: 0, ts: NO_TS },
  );
  for (const message of incoming) appendMessage(c, message);
  const delayMs = settings.stepDelayMs ?? 0;
  if (turn > 1 && delayMs > 0) c.out.push({ type: 'cmd.model', request: c.nextRequest(), attempt: 0, compacted: false, delayMs });
  else requestModel(c);
}

/** The fields of a run that belong to one turn: a new turn starts without them. */
type TurnFields = 'retry' | 'batch' | 'assistant' | 'precompacted' | 'input' | 'outputProblem';
/** The fields a new turn carries over; a field added to `RunState` must be sorted into one of the two (or this fails to compile). */
type CarriedFields = 'id' | 'startedAt' | 'startIndex' | 'turns' | 'usage' | 'attempt' | 'compacted' | 'end' | 'reported' | 'outputAttempts';
const everyRunField: Record<keyof RunState, true> = {} as Record<TurnFields | CarriedFields, true>;
void everyRunField;

/**
 * The run at the start of its next turn: counted, with the last turn's fields dropped. Built field
 * by field: an object rest (`{ batch, ...run }`) costs V8 a slow runtime copy, about 0.7 µs a turn.
 */
function nextTurnRun(run: RunState): RunState {
  const next: RunState = {
    id: run.id,
    startedAt: run.startedAt,
    startIndex: run.startIndex,
    turns: run.turns + 1,
    usage: run.usage,
    attempt: 0,
    compacted: false,
  };
  if (run.end !== undefined) next.end = run.end;
  if (run.reported !== undefined) next.reported = run.reported;
  if (run.outputAttempts !== undefined) next.outputAttempts = run.outputAttempts;
  return next;
}

/** Appends a message that is not a model reply (a prompt, a queued message, a tool result) and emits its `message_start` and `message_end`. */
export function appendMessage(c: Changes, message: Message): void {
  c.append(message);
  c.out.push(
    { type: 'message_start', role: message.role, runId: NO_RUN, agentPath: NO_PATH, seq: 0, ts: NO_TS },
    { type: 'message_end', role: message.role, message, runId: NO_RUN, agentPath: NO_PATH, seq: 0, ts: NO_TS },
  );
}

/** Asks the model effect for the current turn's reply. */
export function requestModel(c: Changes, _event?: AgentMachineEvent): void {
  const { attempt, compacted, precompacted } = c.run;
  c.out.push({ type: 'cmd.model', request: c.nextRequest(), attempt, compacted: compacted || precompacted === true });
}

/** Records the finished assistant message and its usage. */
export function recordAssistant(c: Changes, message: AssistantMessage): void {
  c.append(message);
  const usage = addUsage(c.run.usage, message.usage);
  c.edit({ usage, assistant: message, attempt: 0 });
  c.out.push({ type: 'usage', usage: message.usage, total: usage, runId: NO_RUN, agentPath: NO_PATH, seq: 0, ts: NO_TS });
}

/** A new batch's results, decisions and questions: shared frozen empties (transitions copy before adding), not three per turn kept by each waiting run. */
const NO_RESULTS: ToolBatch['results'] = Object.freeze({});
const NO_DECISIONS: ToolBatch['decisions'] = Object.freeze({});
const NO_SUSPENDED: ToolBatch['suspended'] = Object.freeze([]);

/** Opens the tool batch of the assistant message. */
export function startBatch(c: Changes, message: AssistantMessage): void {
  c.batch = { calls: toolCallsOf(message), results: NO_RESULTS, decisions: NO_DECISIONS, suspended: NO_SUSPENDED };
}

/** Every call of a `length`-truncated reply gets an error result instead of running. */
export function truncatedBatch(c: Changes, message: AssistantMessage, at: number): void {
  const calls = toolCallsOf(message);
  const results: Record<string, ToolResultMessage> = {};
  for (const call of calls) results[call.id] = errorResult(call, INCOMPLETE_TOOL_CALL, at);
  c.batch = { calls, results, decisions: NO_DECISIONS, suspended: NO_SUSPENDED };
}

/** Asks the tool effect to run the batch's open calls. */
export function requestTools(c: Changes, _event?: AgentMachineEvent): void {
  pushTools(c, false);
}

/** Asks the tool effect to go on with a batch restored from a snapshot: only calls safe to repeat run again. */
export function resumeTools(c: Changes, _event?: AgentMachineEvent): void {
  pushTools(c, true);
}

function pushTools(c: Changes, resumed: boolean): void {
  const batch = c.batch;
  c.out.push(
    { type: 'state', state: 'tool_executing', runId: NO_RUN, agentPath: NO_PATH, seq: 0, ts: NO_TS },
    {
      type: 'cmd.tools',
      request: c.nextRequest(),
      calls: batch.calls,
      skip: Object.keys(batch.results),
      decisions: batch.decisions,
      remembered: c.context.permissions,
      steered: c.context.steering.length > 0,
      resumed,
    },
  );
}

/** Stores settled results (and suspensions / a completion) reported by the tool effect. */
export function recordOutcome(c: Changes, outcome: Partial<BatchOutcome>): void {
  const batch = c.batch;
  // Copied only when results came (a batch whose only call suspended keeps the shared empty one).
  const results: Record<string, ToolResultMessage> = (outcome.results?.length ?? 0) > 0 ? withFields(batch.results, {}) : batch.results;
  for (const result of outcome.results ?? []) results[result.toolCallId] = result;
  const next = c.editBatch({ results });
  if (outcome.suspended !== undefined && outcome.suspended.length > 0) next.suspended = batch.suspended.concat(outcome.suspended);
  if (outcome.complete !== undefined) next.complete = outcome.complete;
}

/** Gives every call without a result (suspended ones included) the error result `text`. */
export function fillUnfinished(c: Changes, at: number, text: string): void {
  const batch = c.batch;
  const results: Record<string, ToolResultMessage> = withFields(batch.results, {});
  for (const call of batch.calls) if (results[call.id] === undefined) results[call.id] = errorResult(call, text, at);
  c.editBatch({ results, suspended: NO_SUSPENDED });
}

/** Appends the batch's results in the model's call order and ends the turn. */
export function finishBatch(c: Changes): void {
  const batch = c.run.batch;
  const toolResults: ToolResultMessage[] = [];
  if (batch !== undefined) {
    for (const call of batch.calls) {
      const result = batch.results[call.id];
      if (result !== undefined) toolResults.push(result);
    }
  }
  for (const result of toolResults) appendMessage(c, result);
  endTurn(c, toolResults);
}

/** Emits `turn_end` for the current turn. */
export function endTurn(c: Changes, toolResults: ToolResultMessage[]): void {
  const { turns: turn, assistant } = c.run;
  c.out.push(
    assistant === undefined
      ? { type: 'turn_end', turn, toolResults, runId: NO_RUN, agentPath: NO_PATH, seq: 0, ts: NO_TS }
      : { type: 'turn_end', turn, message: assistant, toolResults, runId: NO_RUN, agentPath: NO_PATH, seq: 0, ts: NO_TS },
  );
}

/** Applies the user's answer to the first suspended call; returns what to wait for next. */
export function answerQuestion(c: Changes, answer: string, at: number): PendingInput | null {
  const batch = c.batch;
  const [first, ...rest] = batch.suspended;
  if (first === undefined) return null;
  const result: ToolResultMessage = {
    role: 'toolResult',
    toolCallId: first.callId,
    toolName: first.toolName,
    content: [{ type: 'text', text: answer }],
    isError: false,
    timestamp: at,
  };
  c.editBatch({ results: { ...batch.results, [first.callId]: result }, suspended: rest });
  c.out.push({ type: 'tool_end', toolCallId: first.callId, toolName: first.toolName, result, runId: NO_RUN, agentPath: NO_PATH, seq: 0, ts: NO_TS });
  c.patch.pending = questionOf(c.batch);
  return c.patch.pending;
}

/** The first suspended call's question, as what `waiting_user` waits for. */
export function questionOf(batch: ToolBatch): PendingInput | null {
  const first = batch.suspended[0];
  return first === undefined ? null : { kind: 'question', ...first };
}

/** Emits the permission request or question the agent now waits for. */
export function announcePending(c: Changes, _event?: AgentMachineEvent): void {
  const pending = c.patch.pending ?? c.context.pending;
  c.out.push({ type: 'state', state: 'waiting_user', runId: NO_RUN, agentPath: NO_PATH, seq: 0, ts: NO_TS });
  if (pending?.kind === 'permission') {
    c.out.push({
      type: 'permission_request',
      toolCallId: pending.callId,
      toolName: pending.toolName,
      args: pending.args,
      runId: NO_RUN,
      agentPath: NO_PATH,
      seq: 0,
      ts: NO_TS,
    });
  } else if (pending?.kind === 'question') {
    const { callId, toolName, question, details } = pending;
    c.out.push(
      details === undefined
        ? { type: 'question', toolCallId: callId, toolName, question, runId: NO_RUN, agentPath: NO_PATH, seq: 0, ts: NO_TS }
        : { type: 'question', toolCallId: callId, toolName, question, details, runId: NO_RUN, agentPath: NO_PATH, seq: 0, ts: NO_TS },
    );
  }
}

/** The limit that stops the run before another turn, if one is reached. */
export function limitBeforeNextTurn(context: AgentContext, run: RunState, at: number): LimitHit | undefined {
  return limitReached(context.settings.limits, run.turns, run.usage, at - run.startedAt);
}

/** Marks how the run ends; `agent_end` follows on entering the final state. */
export function endRun(c: Changes, end: RunEnd): void {
  c.edit({ end });
  c.patch.pending = null;
}

/** Who wrote the messages the agent adds itself (a limit's notice), in `AssistantMessage.model`. */
export const NOTICE_MODEL = 'troupe';

/**
 * Ends the run at `limit`, with an assistant message saying which limit stopped it (see
 * `limitNotice`). It is kept in the history and the events, not sent to the model (`aborted`).
 */
export function endAtLimit(c: Changes, limit: LimitHit, at: number): void {
  endRun(c, { stopReason: 'limit', limit });
  const text = limitNotice(limit);
  const message: AssistantMessage = {
    role: 'assistant',
    content: [{ type: 'text', text }],
    stopReason: 'aborted',
    usage: emptyUsage(),
    model: NOTICE_MODEL,
    timestamp: at,
  };
  c.append(message);
  // Its text streams as a reply's would, so consumers that show deltas show it too.
  c.out.push(
    { type: 'message_start', role: 'assistant', runId: NO_RUN, agentPath: NO_PATH, seq: 0, ts: NO_TS },
    { type: 'message_update', delta: { type: 'text_start', index: 0 }, runId: NO_RUN, agentPath: NO_PATH, seq: 0, ts: NO_TS },
    { type: 'message_update', delta: { type: 'text_delta', index: 0, delta: text }, runId: NO_RUN, agentPath: NO_PATH, seq: 0, ts: NO_TS },
    { type: 'message_update', delta: { type: 'text_end', index: 0 }, runId: NO_RUN, agentPath: NO_PATH, seq: 0, ts: NO_TS },
    { type: 'message_end', role: 'assistant', message, runId: NO_RUN, agentPath: NO_PATH, seq: 0, ts: NO_TS },
  );
}

/**
 * Emits the final state's event and, once per run, the run's end (`agent_end`, whose result the
 * `Agent` builds with the history it holds).
 */
export function reportEnd(c: Changes, state: 'done' | 'aborted' | 'error', at: number): void {
  c.out.push({ type: 'state', state, runId: NO_RUN, agentPath: NO_PATH, seq: 0, ts: NO_TS });
  const run = c.patch.run ?? c.context.run;
  if (run?.end === undefined || run.reported === true) return;
  c.out.push({ type: 'run.end', run: c.edit({ reported: true }), at });
}
