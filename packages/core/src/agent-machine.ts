/**
 * The agent loop as an XState v5 statechart.
 *
 * The machine is pure: it never calls a model or a tool. It emits effect commands
 * (`cmd.model`, `cmd.compact`, `cmd.tools`, `cmd.cancel`) that long-lived effect handlers owned
 * by the `Agent` carry out, and they answer with events (`MODEL.DONE`, `TOOL.RESULT`, …). That
 * keeps per-turn work small (no actor per model call or tool batch) and lets a snapshot of the
 * context resume anywhere: every state re-issues its effect on `RESUME`.
 */
import { and, enqueueActions, not, setup } from 'xstate';
import type { AgentStateName } from './agent-result.js';
import { ErrorCode } from './errors.js';
import { cancelText, INCOMPLETE_TOOL_CALL, INTERRUPT_TOOL } from './interrupts.js';
import { toolCallsOf } from './messages.js';
import {
  answerQuestion, batchUnfinished, beginTurn, endRun, fillUnfinished, finishBatch, incompleteBatch, interruptText, limitBeforeNextTurn,
  questionPending, recordAssistant, recordResult, reportEnd, startBatch, startRun, turnEnd, type Step,
} from './machine-steps.js';
import type { AgentContext, AgentMachineEvent, MachineEmitted, MachineSettings } from './machine-types.js';
import type { Message } from './messages.js';

/** Input of a fresh agent actor. */
export interface AgentMachineInput {
  settings: MachineSettings;
  messages?: Message[];
}

type Enqueue = {
  assign(patch: Partial<AgentContext>): void;
  emit(item: MachineEmitted): void;
};

function apply(enqueue: Enqueue, step: Step): void {
  if (Object.keys(step.patch).length > 0) enqueue.assign(step.patch);
  for (const item of step.emit) enqueue.emit(item);
}

/** A step with nothing to change. */
const none: Step = { patch: {}, emit: [] };

function stateEntry(state: AgentStateName) {
  return { type: 'emitState' as const, params: { state } };
}

function isCurrent(context: AgentContext, event: AgentMachineEvent): boolean {
  return 'request' in event && event.request === context.request;
}

function assistantOf(event: AgentMachineEvent) {
  if (event.type !== 'MODEL.DONE') throw new Error(`agent machine: expected MODEL.DONE, got ${event.type}`);
  return event.message;
}

export const agentMachine = setup({
  types: {
    context: {} as AgentContext,
    events: {} as AgentMachineEvent,
    emitted: {} as MachineEmitted,
    input: {} as AgentMachineInput,
  },
  guards: {
    current: ({ context, event }) => isCurrent(context, event),
    hasToolCalls: ({ event }) => toolCallsOf(assistantOf(event)).length > 0,
    truncated: ({ event }) => assistantOf(event).stopReason === 'length',
    failedWithError: ({ event }) => assistantOf(event).stopReason === 'error' || assistantOf(event).stopReason === 'aborted',
    /** After a text-only turn: steering or follow-up messages make the run go on. */
    wouldContinue: ({ context }) => context.steering.length > 0 || context.followUps.length > 0,
    limitAfterReply: ({ context, event }) => limitBeforeNextTurn(context, event.at, assistantOf(event).usage) !== undefined,
    limitNow: ({ context, event }) => limitBeforeNextTurn(context, event.at) !== undefined,
    canCompact: ({ context, event }) => event.type === 'MODEL.FAILED' && event.error.kind === 'overflow' && context.run?.compacted === false,
    willRetry: ({ event }) => event.type === 'MODEL.FAILED' && event.retryInMs !== undefined,
    steeringCancels: ({ context, event }) => {
      const batch = context.run?.batch;
      if (event.type !== 'TOOL.RESULT' || batch === undefined || context.steering.length === 0) return false;
      // The result in this event is not stored yet: the batch goes on only if another call is open.
      return batch.calls.some((call) => call.id !== event.result.toolCallId && batch.results[call.id] === undefined);
    },
    hasSuspended: ({ context }) => (context.run?.batch?.suspended.length ?? 0) > 0,
    moreQuestions: ({ context }) => (context.run?.batch?.suspended.length ?? 0) > 1,
    completed: ({ context }) => context.run?.batch?.complete !== undefined,
    permissionFor: ({ context, event }) => event.type === 'APPROVE' && context.pending?.kind === 'permission' && context.pending.callId === event.callId,
    interrupts: ({ event }) => event.type === 'APPROVE' && event.decision === 'deny_interrupt',
    questionPending: ({ context }) => context.pending?.kind === 'question',
    runActive: ({ context }) => context.run !== null && context.run.end === undefined,
  },
  actions: {
    emitState: enqueueActions(({ enqueue }, params: { state: AgentStateName }) => enqueue.emit({ type: 'state', state: params.state })),
    startRun: enqueueActions(({ context, event, enqueue }) => {
      if (event.type === 'PROMPT' || event.type === 'CONTINUE') apply(enqueue, startRun(context, event));
    }),
    beginTurn: enqueueActions(({ context, event, enqueue }) => apply(enqueue, beginTurn(context, event))),
    requestModel: enqueueActions(({ context, enqueue }) => {
      const request = context.request + 1;
      enqueue.assign({ request });
      enqueue.emit({ type: 'cmd.model', request, turn: context.run?.turns ?? 0, attempt: context.run?.attempt ?? 0 });
    }),
    requestCompaction: enqueueActions(({ context, enqueue }) => {
      const request = context.request + 1;
      const run = context.run;
      enqueue.assign({ request, ...(run === null ? {} : { run: { ...run, compacted: true } }) });
      enqueue.emit({ type: 'cmd.compact', request });
    }),
    applyCompaction: enqueueActions(({ context, event, enqueue }) => {
      if (event.type !== 'COMPACTED' || context.run === null) return;
      const removed = context.messages.length - event.messages.length;
      const startIndex = Math.max(0, context.run.startIndex - removed);
      enqueue.assign({ messages: event.messages, run: { ...context.run, startIndex } });
      enqueue.emit({ type: 'compaction', removedMessages: removed, keptMessages: event.messages.length });
    }),
    scheduleRetry: enqueueActions(({ context, event, enqueue }) => {
      if (event.type !== 'MODEL.FAILED' || event.retryInMs === undefined || context.run === null) return;
      const attempt = context.run.attempt + 1;
      enqueue.assign({ run: { ...context.run, attempt, retry: { delayMs: event.retryInMs, until: event.at + event.retryInMs, error: event.error } } });
      enqueue.emit({ type: 'retry', attempt, delayMs: event.retryInMs, error: event.error });
    }),
    rearmRetry: enqueueActions(({ context, event, enqueue }) => {
      const run = context.run;
      if (run?.retry === undefined) return;
      enqueue.assign({ run: { ...run, retry: { ...run.retry, delayMs: Math.max(0, run.retry.until - event.at) } } });
    }),
    recordAssistant: enqueueActions(({ context, event, enqueue }) => apply(enqueue, recordAssistant(context, assistantOf(event)))),
    startBatch: enqueueActions(({ context, event, enqueue }) => apply(enqueue, startBatch(context, assistantOf(event)))),
    truncatedBatch: enqueueActions(({ context, event, enqueue }) => {
      if (context.run === null) return;
      enqueue.assign({ run: { ...context.run, batch: incompleteBatch(assistantOf(event), event.at, INCOMPLETE_TOOL_CALL) } });
    }),
    endTextTurn: enqueueActions(({ context, enqueue }) => {
      if (context.run !== null) enqueue.emit(turnEnd(context.run.turns, context.run.assistant, []));
    }),
    requestTools: enqueueActions(({ context, enqueue }) => {
      const batch = context.run?.batch;
      if (batch === undefined) return;
      const request = context.request + 1;
      enqueue.assign({ request });
      enqueue.emit({ type: 'cmd.tools', request, calls: batch.calls, skip: Object.keys(batch.results), decisions: batch.decisions, remembered: context.permissions });
    }),
    recordResult: enqueueActions(({ context, event, enqueue }) => {
      if (event.type === 'TOOL.RESULT') apply(enqueue, recordResult(context, event));
    }),
    cancelEffects: enqueueActions(({ context, event, enqueue }) => {
      const reason = event.type === 'ABORT' ? 'abort' : event.type === 'LIMIT' ? 'limit' : 'steering';
      enqueue.emit({ type: 'cmd.cancel', request: context.request, reason });
    }),
    skipBySteering: enqueueActions(({ context, event, enqueue }) => apply(enqueue, fillUnfinished(context, event.at, () => cancelText('steering')))),
    interruptBatch: enqueueActions(({ context, event, enqueue }) => {
      if (context.run?.batch === undefined) return;
      const denied = event.type === 'APPROVE' ? event.callId : undefined;
      const text = event.type === 'LIMIT' ? () => cancelText('limit') : interruptText(denied);
      apply(enqueue, fillUnfinished(context, event.at, text));
    }),
    finishBatch: enqueueActions(({ context, enqueue }) => {
      if (context.run?.batch !== undefined) apply(enqueue, finishBatch(context));
    }),
    endTurnWithoutReply: enqueueActions(({ context, enqueue }) => {
      if (context.run !== null) enqueue.emit(turnEnd(context.run.turns, undefined, []));
    }),
    askPermission: enqueueActions(({ context, event, enqueue }) => {
      if (event.type !== 'TOOLS.ASK') return;
      const call = context.run?.batch?.calls.find((c) => c.id === event.callId);
      if (call === undefined) return;
      enqueue.assign({ pending: { kind: 'permission', callId: call.id, toolName: call.name, args: call.arguments } });
    }),
    askQuestion: enqueueActions(({ context, enqueue }) => {
      const batch = context.run?.batch;
      if (batch !== undefined) enqueue.assign({ pending: questionPending(batch) });
    }),
    emitPending: enqueueActions(({ context, enqueue }) => {
      const pending = context.pending;
      if (pending?.kind === 'permission') {
        enqueue.emit({ type: 'permission_request', toolCallId: pending.callId, toolName: pending.toolName, args: pending.args });
      } else if (pending?.kind === 'question') {
        const { callId, toolName, question, details } = pending;
        enqueue.emit(details === undefined ? { type: 'question', toolCallId: callId, toolName, question } : { type: 'question', toolCallId: callId, toolName, question, details });
      }
    }),
    recordDecision: enqueueActions(({ context, event, enqueue }) => {
      const run = context.run;
      if (event.type !== 'APPROVE' || run?.batch === undefined) return;
      const call = run.batch.calls.find((c) => c.id === event.callId);
      const allow = event.decision === 'allow_once' || event.decision === 'allow_always';
      const decisions = { ...run.batch.decisions, [event.callId]: allow ? ('allow' as const) : ('deny' as const) };
      const patch: Partial<AgentContext> = { run: { ...run, batch: { ...run.batch, decisions } }, pending: null };
      if (call !== undefined && (event.decision === 'allow_always' || event.decision === 'deny_never')) {
        patch.permissions = { ...context.permissions, [call.name]: allow ? 'allow' : 'deny' };
      }
      enqueue.assign(patch);
    }),
    answer: enqueueActions(({ context, event, enqueue }) => {
      if (event.type !== 'REPLY') return;
      apply(enqueue, answerQuestion(context, event.answer, event.at));
      enqueue.assign({ pending: null });
    }),
    nextQuestion: enqueueActions(({ context, enqueue }) => {
      // Runs after `answer` removed the first question.
      const batch = context.run?.batch;
      if (batch !== undefined) enqueue.assign({ pending: questionPending(batch) });
    }),
    endStop: enqueueActions(({ context, event, enqueue }) => {
      const stop = assistantOf(event).stopReason === 'length' ? 'length' : 'stop';
      apply(enqueue, endRun(context, stop));
    }),
    endModelError: enqueueActions(({ context, event, enqueue }) => {
      if (event.type === 'MODEL.FAILED') {
        apply(enqueue, endRun(context, 'error', { error: { code: ErrorCode.ProviderError, message: event.error.message, data: event.error } }));
      } else if (event.type === 'MODEL.DONE') {
        const message = event.message.errorMessage ?? `the model stopped with ${event.message.stopReason}`;
        apply(enqueue, endRun(context, 'error', { error: { code: ErrorCode.ProviderError, message } }));
      }
    }),
    endLimitAfterReply: enqueueActions(({ context, event, enqueue }) => {
      const limit = limitBeforeNextTurn(context, event.at);
      apply(enqueue, limit === undefined ? none : endRun(context, 'limit', { limit }));
    }),
    endLimitEvent: enqueueActions(({ context, event, enqueue }) => {
      if (event.type === 'LIMIT') apply(enqueue, endRun(context, 'limit', { limit: event.limit }));
    }),
    endComplete: enqueueActions(({ context, enqueue }) => apply(enqueue, endRun(context, 'complete', { value: context.run?.batch?.complete?.value }))),
    endInterrupted: enqueueActions(({ context, enqueue }) => apply(enqueue, endRun(context, 'interrupted'))),
    endAborted: enqueueActions(({ context, enqueue }) => {
      if (context.run !== null && context.run.end === undefined) apply(enqueue, endRun(context, 'aborted', { error: { code: 'aborted', message: INTERRUPT_TOOL } }));
    }),
    reportEnd: enqueueActions(({ context, event, enqueue }) => apply(enqueue, reportEnd(context, event.at))),
    enqueueSteering: enqueueActions(({ context, event, enqueue }) => {
      if (event.type === 'STEER') enqueue.assign({ steering: [...context.steering, event.message] });
    }),
    enqueueFollowUp: enqueueActions(({ context, event, enqueue }) => {
      if (event.type === 'FOLLOW_UP') enqueue.assign({ followUps: [...context.followUps, event.message] });
    }),
  },
  delays: {
    retryDelay: ({ context }) => context.run?.retry?.delayMs ?? 0,
  },
}).createMachine({
  id: 'agent',
  context: ({ input }) => ({
    messages: input.messages ?? [], steering: [], followUps: [], permissions: {}, settings: input.settings, request: 0, run: null, pending: null,
  }),
  initial: 'idle',
  on: {
    STEER: { actions: 'enqueueSteering' },
    FOLLOW_UP: { actions: 'enqueueFollowUp' },
  },
  states: {
    idle: {
      entry: stateEntry('idle'),
      on: {
        PROMPT: { target: 'thinking', actions: 'startRun' },
        CONTINUE: { target: 'thinking', actions: 'startRun' },
        ABORT: 'aborted',
      },
    },
    thinking: {
      entry: [stateEntry('thinking'), 'beginTurn'],
      initial: 'requesting',
      states: {
        requesting: {
          entry: 'requestModel',
          on: {
            'MODEL.DONE': [
              { guard: and(['current', 'failedWithError']), target: '#agent.error', actions: 'endModelError' },
              { guard: and(['current', 'hasToolCalls', not('truncated')]), target: '#agent.tool_executing', actions: ['recordAssistant', 'startBatch'] },
              {
                guard: and(['current', 'hasToolCalls', 'limitAfterReply']),
                target: '#agent.done',
                actions: ['recordAssistant', 'truncatedBatch', 'finishBatch', 'endLimitAfterReply'],
              },
              { guard: and(['current', 'hasToolCalls']), target: '#agent.thinking', reenter: true, actions: ['recordAssistant', 'truncatedBatch', 'finishBatch'] },
              {
                guard: and(['current', 'wouldContinue', 'limitAfterReply']),
                target: '#agent.done',
                actions: ['recordAssistant', 'endTextTurn', 'endLimitAfterReply'],
              },
              { guard: and(['current', 'wouldContinue']), target: '#agent.thinking', reenter: true, actions: ['recordAssistant', 'endTextTurn'] },
              { guard: 'current', target: '#agent.done', actions: ['recordAssistant', 'endTextTurn', 'endStop'] },
            ],
            'MODEL.FAILED': [
              { guard: and(['current', 'canCompact']), target: 'compacting' },
              { guard: and(['current', 'willRetry']), target: 'retrying', actions: 'scheduleRetry' },
              { guard: 'current', target: '#agent.error', actions: ['endTurnWithoutReply', 'endModelError'] },
            ],
            RESUME: { target: 'requesting', reenter: true },
          },
        },
        compacting: {
          entry: 'requestCompaction',
          on: {
            COMPACTED: { guard: 'current', target: 'requesting', actions: 'applyCompaction' },
            RESUME: { target: 'compacting', reenter: true },
          },
        },
        retrying: {
          after: { retryDelay: 'requesting' },
          on: { RESUME: { target: 'retrying', reenter: true, actions: 'rearmRetry' } },
        },
      },
      on: {
        ABORT: { target: 'aborted', actions: ['cancelEffects', 'endTurnWithoutReply', 'endAborted'] },
        LIMIT: { target: 'done', actions: ['cancelEffects', 'endTurnWithoutReply', 'endLimitEvent'] },
      },
    },
    tool_executing: {
      entry: [stateEntry('tool_executing'), 'requestTools'],
      on: {
        'TOOL.RESULT': [
          { guard: and(['current', 'steeringCancels']), target: 'thinking', actions: ['recordResult', 'cancelEffects', 'skipBySteering', 'finishBatch'] },
          { guard: 'current', actions: 'recordResult' },
        ],
        'TOOLS.ASK': { guard: 'current', target: 'waiting_user', actions: 'askPermission' },
        'TOOLS.DONE': [
          { guard: and(['current', 'hasSuspended']), target: 'waiting_user', actions: 'askQuestion' },
          { guard: and(['current', 'completed']), target: 'done', actions: ['finishBatch', 'endComplete'] },
          { guard: and(['current', 'limitNow']), target: 'done', actions: ['finishBatch', 'endLimitAfterReply'] },
          { guard: 'current', target: 'thinking', actions: 'finishBatch' },
        ],
        RESUME: { target: 'tool_executing', reenter: true },
        ABORT: { target: 'aborted', actions: ['cancelEffects', 'interruptBatch', 'finishBatch', 'endAborted'] },
        LIMIT: { target: 'done', actions: ['cancelEffects', 'interruptBatch', 'finishBatch', 'endLimitEvent'] },
      },
    },
    waiting_user: {
      entry: [stateEntry('waiting_user'), 'emitPending'],
      on: {
        APPROVE: [
          { guard: and(['permissionFor', 'interrupts']), target: 'done', actions: ['interruptBatch', 'finishBatch', 'endInterrupted'] },
          { guard: 'permissionFor', target: 'tool_executing', actions: 'recordDecision' },
        ],
        REPLY: [
          { guard: and(['questionPending', 'moreQuestions']), target: 'waiting_user', reenter: true, actions: ['answer', 'nextQuestion'] },
          { guard: and(['questionPending', 'completed']), target: 'done', actions: ['answer', 'finishBatch', 'endComplete'] },
          { guard: and(['questionPending', 'limitNow']), target: 'done', actions: ['answer', 'finishBatch', 'endLimitAfterReply'] },
          { guard: 'questionPending', target: 'thinking', actions: ['answer', 'finishBatch'] },
        ],
        ABORT: { target: 'aborted', actions: ['interruptBatch', 'finishBatch', 'endAborted'] },
        LIMIT: { target: 'done', actions: ['interruptBatch', 'finishBatch', 'endLimitEvent'] },
      },
    },
    done: {
      entry: [stateEntry('done'), 'reportEnd'],
      on: { PROMPT: { target: 'thinking', actions: 'startRun' }, CONTINUE: { target: 'thinking', actions: 'startRun' }, ABORT: 'aborted' },
    },
    aborted: {
      entry: [stateEntry('aborted'), 'reportEnd'],
      on: { PROMPT: { target: 'thinking', actions: 'startRun' }, CONTINUE: { target: 'thinking', actions: 'startRun' } },
    },
    error: {
      entry: [stateEntry('error'), 'reportEnd'],
      on: { PROMPT: { target: 'thinking', actions: 'startRun' }, CONTINUE: { target: 'thinking', actions: 'startRun' }, ABORT: 'aborted' },
    },
  },
});

/** The agent statechart's type. */
export type AgentMachine = typeof agentMachine;
