/**
 * The agent loop as an XState v5 statechart.
 *
 * The machine is pure: it never calls a model or a tool, and it does not hold the history. Each
 * transition runs one `assign` that updates the context and fills `context.outbox` with what the
 * outside world must do — history changes (`history.append`, `history.replace`), events to
 * publish, effect commands (`cmd.guard`, `cmd.model`, `cmd.compact`, `cmd.tools`, `cmd.steer`,
 * `cmd.cancel`) and the run's end (`run.end`). The `Agent` applies the history changes to the
 * history it owns, then publishes the events and hands the commands to long-lived effects, which
 * answer with events. One assign per transition and no actor per model call or tool batch keep
 * XState's per-turn cost small; the work a state does on entry is folded into the transitions
 * that enter it (see `into`). So `transition(agentMachine, snapshot, event)` alone computes the
 * next state and every command (see the table tests). A snapshot of the context resumes anywhere:
 * every active state re-issues its effect on `RESUME`.
 *
 * One turn with a tool call, event by event:
 * 1. `PROMPT` in `idle` → `thinking.streaming`: `agent_start`, `state`, `turn_start`, the prompt as
 *    `history.append` + `message_start`/`message_end`, and `cmd.model`. (With input guardrails it
 *    waits in `thinking.guarding` on `cmd.guard` until the guard effect answers `GUARD.DONE`.)
 * 2. The model effect streams the reply (its deltas are published directly) and answers
 *    `MODEL.DONE` (or `MODEL.FAILED` → `retrying` / `compacting` / `error`; `MODEL.COMPACT` →
 *    `compacting` on `cmd.compact`, answered by `COMPACTED`).
 * 3. `MODEL.DONE` with tool calls → `tool_executing`: the reply as `history.append`, `usage`,
 *    `state`, and `cmd.tools` for the batch.
 * 4. The tool effect runs the calls (publishing tool events) and answers `TOOLS.DONE` (or
 *    `TOOLS.ASK` → `waiting_user` until `APPROVE`, which re-issues `cmd.tools`). A call not safe
 *    to repeat that finishes before the rest of its batch is kept at once (`TOOLS.RESULT`).
 * 5. `TOOLS.DONE` → `thinking.streaming`: the results in call order as `history.append`,
 *    `turn_end`, then the next turn's `turn_start` and `cmd.model`.
 * 6. A `MODEL.DONE` with text only → `done`: the reply, `usage`, `turn_end`, `state` and `run.end`,
 *    from which the `Agent` publishes `agent_end`.
 */
import { assertEvent, assign, setup } from 'xstate';
import type { AgentStateName } from './agent-result.js';
import { cancelText, INTERRUPT_TOOL, INTERRUPT_USER } from './interrupts.js';
import { batchRoute, replyRoute, type BatchRoute, type ReplyRoute } from './machine-routes.js';
import { clearQueues, resetContext, setMessages } from './machine-admin-steps.js';
import {
  announcePending,
  answerQuestion,
  appendMessage,
  beginTurn,
  Changes,
  endAtLimit,
  endRun,
  endTurn,
  fillUnfinished,
  finishBatch,
  questionOf,
  recordOutcome,
  reportEnd,
  requestGuard,
  requestModel,
  requestTools,
  resumeTools,
  startRun,
  type Step,
} from './machine-steps.js';
import { NO_PATH, NO_RUN, NO_TS } from './unstamped-event.js';
import {
  compacted,
  modelFailed,
  rearmRetry,
  replyError,
  requestCompaction,
  resumeCompaction,
  scheduleRetry,
  stopAtLimit,
  textTurn,
  toolTurn,
  truncated,
} from './machine-model-steps.js';
import { askOutputAgain, invalidOutput, refused, rejected, stop, stoppedByHook } from './machine-outcome-steps.js';
import type { AgentContext, AgentMachineEvent, MachineOutput, MachineSettings } from './machine-types.js';
import { endsWithReply, type Message } from './messages.js';
import { ErrorCode } from './errors.js';
import { compileChart, type ChartReducer } from './compiled-chart.js';

/** Input of a fresh agent actor. */
export interface AgentMachineInput {
  settings: MachineSettings;
  /** The history the agent starts with; the machine keeps only its length (whoever runs it holds the messages). */
  messages?: readonly Message[];
  /** The conversation's id (see `AgentOptions.sessionId`). */
  sessionId?: string;
}

/** The context of a fresh agent. */
export function initialAgentContext(input: AgentMachineInput): AgentContext {
  const messages = input.messages ?? [];
  const context: AgentContext = {
    historyLength: messages.length,
    endsWithReply: endsWithReply(messages),
    steering: [],
    followUps: [],
    permissions: {},
    settings: input.settings,
    request: 0,
    run: null,
    pending: null,
    outbox: [],
  };
  if (input.sessionId !== undefined) context.sessionId = input.sessionId;
  return context;
}

const NO_OUTPUT: MachineOutput[] = [];

/** The plain function of each transition's assign, for the compiled chart (see `agentChart`). */
const reducers = new WeakMap<object, ChartReducer>();

/** Runs steps in order as the single assign of a transition. */
function run(...fns: Step[]) {
  const reduce: ChartReducer = (context, event) => {
    const c = new Changes(context);
    for (const fn of fns) fn(c, event);
    // The patch is this transition's own object: completing it saves a copy per transition.
    const patch = c.patch;
    patch.outbox = c.out.length === 0 ? NO_OUTPUT : c.out;
    return patch;
  };
  const action = assign<AgentContext, AgentMachineEvent, undefined, AgentMachineEvent, never>(({ context, event }) => reduce(context, event));
  reducers.set(action, reduce);
  return action;
}

/** What entering each state does, folded into every transition that enters it. */
const onEnter: Record<AgentStateName, Step> = {
  idle: (c) => c.out.push({ type: 'state', state: 'idle', runId: NO_RUN, agentPath: NO_PATH, seq: 0, ts: NO_TS }),
  thinking: beginTurn,
  tool_executing: requestTools,
  waiting_user: announcePending,
  done: (c, e) => reportEnd(c, 'done', e.at),
  aborted: (c, e) => reportEnd(c, 'aborted', e.at),
  error: (c, e) => reportEnd(c, 'error', e.at),
};

/** A transition to `target` that runs `steps`, then what entering `target` does. */
function into(target: AgentStateName, ...steps: Step[]) {
  return { target: `#agent.${target}`, reenter: true, actions: run(...steps, onEnter[target]) };
}

const reply = (route: ReplyRoute) => ({ type: 'reply' as const, params: { route } });
const batch = (route: BatchRoute) => ({ type: 'batch' as const, params: { route } });

// Steps of the transitions below (those answering the model effect are in machine-model-steps.ts).

const toolsDone: Step = (c, e) => {
  assertEvent(e, 'TOOLS.DONE');
  recordOutcome(c, e);
};

const keepResult: Step = (c, e) => {
  assertEvent(e, 'TOOLS.RESULT');
  recordOutcome(c, { results: [e.result] });
};

const waitForAnswer: Step = (c) => {
  c.patch.pending = questionOf(c.batch);
};

const askPermission: Step = (c, e) => {
  assertEvent(e, 'TOOLS.ASK');
  const { callId, results } = e;
  recordOutcome(c, { results });
  const call = c.batch.calls.find((x) => x.id === callId);
  if (call !== undefined) c.patch.pending = { kind: 'permission', callId, toolName: call.name, args: call.arguments };
};

const decide: Step = (c, e) => {
  assertEvent(e, 'APPROVE');
  const { callId, decision } = e;
  const allow = decision === 'allow_once' || decision === 'allow_always';
  c.editBatch({ decisions: { ...c.batch.decisions, [callId]: allow ? 'allow' : 'deny' } });
  c.patch.pending = null;
  const call = c.batch.calls.find((x) => x.id === callId);
  if (call !== undefined && (decision === 'allow_always' || decision === 'deny_never')) {
    c.patch.permissions = { ...c.context.permissions, [call.name]: allow ? 'allow' : 'deny' };
  }
};

const answer: Step = (c, e) => {
  assertEvent(e, 'REPLY');
  answerQuestion(c, e.answer, e.at);
};

const complete: Step = (c) => endRun(c, { stopReason: 'complete', value: c.batch.complete?.value });

/** Cancels the effects in flight (an abort or a limit). */
const cancel: Step = (c, e) => {
  c.out.push({ type: 'cmd.cancel', request: c.context.request, reason: e.type === 'LIMIT' ? 'limit' : 'abort' });
};

/**
 * Ends the turn of an interrupted batch: calls not finished get the cancellation text (for the
 * user's interrupt, the flow spec's "[Request interrupted by user for tool use]" and its
 * explanation).
 */
const interruptedBatch: Step = (c, e) => {
  if (c.run.input !== undefined) return; // still checking the prompt: no turn began
  if (c.run.batch === undefined) {
    endTurn(c, []);
    return;
  }
  if (e.type === 'ABORT' || e.type === 'LIMIT') recordOutcome(c, { results: e.results ?? [] });
  fillUnfinished(c, e.at, cancelText(e.type === 'LIMIT' ? 'limit' : 'abort'));
  finishBatch(c);
};

/** An abort with no tool call pending is recorded as the user message "[Request interrupted by user]". */
const aborted: Step = (c, e) => {
  const pendingCalls = c.run.batch !== undefined;
  if (!pendingCalls && c.run.input === undefined) appendMessage(c, { role: 'user', content: INTERRUPT_USER, timestamp: e.at });
  endRun(c, { stopReason: 'aborted', error: { code: ErrorCode.Aborted, message: pendingCalls ? INTERRUPT_TOOL : INTERRUPT_USER } });
};
const limited: Step = (c, e) => {
  assertEvent(e, 'LIMIT');
  endAtLimit(c, e.limit, e.at);
};

const enqueueSteering: Step = (c, e) => {
  assertEvent(e, 'STEER');
  c.patch.steering = [...c.context.steering, e.message];
};

const steerTools: Step = (c, e) => {
  enqueueSteering(c, e);
  c.out.push({ type: 'cmd.steer', request: c.context.request });
};

const enqueueFollowUp: Step = (c, e) => {
  assertEvent(e, 'FOLLOW_UP');
  c.patch.followUps = [...c.context.followUps, e.message];
};

/**
 * How a finished run (or none) starts the next one, and what may change between runs. A prompt
 * goes through the input guardrails first when the agent has any.
 */
const startFrom = {
  PROMPT: [{ guard: 'guarded' as const, target: '#agent.thinking.guarding', reenter: true, actions: run(startRun, requestGuard) }, into('thinking', startRun)],
  CONTINUE: into('thinking', startRun),
  SET_MESSAGES: { actions: run(setMessages) },
  RESET: { target: '#agent.idle', actions: run(resetContext) },
};

export const agentMachine = setup({
  types: {
    context: {} as AgentContext,
    events: {} as AgentMachineEvent,
    input: {} as AgentMachineInput,
  },
  guards: {
    reply: ({ context, event }, params: { route: ReplyRoute }) => replyRoute(context, event) === params.route,
    batch: ({ context, event }, params: { route: BatchRoute }) => batchRoute(context, event) === params.route,
    current: ({ context, event }) => 'request' in event && event.request === context.request,
    canCompact: ({ context, event }) =>
      event.type === 'MODEL.FAILED' &&
      event.request === context.request &&
      event.error.kind === 'overflow' &&
      context.settings.compacts &&
      context.run?.compacted === false,
    canPrecompact: ({ context, event }) =>
      event.type === 'MODEL.COMPACT' && event.request === context.request && context.run?.compacted === false && context.run.precompacted !== true,
    willRetry: ({ context, event }) => event.type === 'MODEL.FAILED' && event.request === context.request && event.retryInMs !== undefined,
    permissionFor: ({ context, event }) => event.type === 'APPROVE' && context.pending?.kind === 'permission' && context.pending.callId === event.callId,
    interrupts: ({ context, event }) =>
      event.type === 'APPROVE' && event.decision === 'deny_interrupt' && context.pending?.kind === 'permission' && context.pending.callId === event.callId,
    moreQuestions: ({ context }) => context.pending?.kind === 'question' && (context.run?.batch?.suspended.length ?? 0) > 1,
    guarded: ({ context }) => context.settings.guardInput === true,
    guardFailed: ({ context, event }) => event.type === 'GUARD.REJECTED' && event.request === context.request && event.error !== undefined,
  },
  delays: {
    retryDelay: ({ context }) => context.run?.retry?.delayMs ?? 0,
  },
}).createMachine({
  id: 'agent',
  context: ({ input }) => initialAgentContext(input),
  initial: 'idle',
  on: {
    STEER: { actions: run(enqueueSteering) },
    FOLLOW_UP: { actions: run(enqueueFollowUp) },
    CLEAR_QUEUES: { actions: run(clearQueues) },
  },
  states: {
    idle: {
      on: { ...startFrom, ABORT: into('aborted') },
    },
    thinking: {
      initial: 'streaming',
      states: {
        streaming: {
          on: {
            'MODEL.DONE': [
              { guard: reply('tools'), ...into('tool_executing', toolTurn) },
              { guard: reply('refusal'), ...into('done', textTurn, refused) },
              { guard: reply('done'), ...into('done', textTurn, stop) },
              { guard: reply('output_retry'), ...into('thinking', textTurn, askOutputAgain) },
              { guard: reply('invalid_output'), ...into('error', textTurn, invalidOutput) },
              { guard: reply('continue'), ...into('thinking', textTurn) },
              { guard: reply('continue_limit'), ...into('done', textTurn, stopAtLimit) },
              { guard: reply('truncated'), ...into('thinking', truncated) },
              { guard: reply('truncated_limit'), ...into('done', truncated, stopAtLimit) },
              { guard: reply('error'), ...into('error', replyError) },
            ],
            'MODEL.COMPACT': [
              { guard: 'canPrecompact', target: 'compacting', actions: run(requestCompaction('threshold')) },
              { guard: 'current', actions: run(requestModel) },
            ],
            'MODEL.FAILED': [
              { guard: 'canCompact', target: 'compacting', actions: run(requestCompaction('overflow')) },
              { guard: 'willRetry', target: 'retrying', actions: run(scheduleRetry) },
              { guard: 'current', ...into('error', modelFailed) },
            ],
            RESUME: { actions: run(requestModel) },
          },
        },
        compacting: {
          on: {
            COMPACTED: { guard: 'current', target: 'streaming', actions: run(compacted, requestModel) },
            RESUME: { actions: run(resumeCompaction) },
          },
        },
        retrying: {
          after: { retryDelay: { target: 'streaming', actions: run(requestModel) } },
          on: { RESUME: { target: 'retrying', reenter: true, actions: run(rearmRetry) } },
        },
        // The prompt waits here for the input guardrails; it enters the history once they pass.
        guarding: {
          on: {
            'GUARD.DONE': { guard: 'current', ...into('thinking') },
            'GUARD.REJECTED': [
              { guard: 'guardFailed', ...into('error', rejected) },
              { guard: 'current', ...into('done', rejected) },
            ],
            RESUME: { actions: run(requestGuard) },
          },
        },
      },
      on: {
        ABORT: into('aborted', cancel, interruptedBatch, aborted),
        LIMIT: into('done', cancel, interruptedBatch, limited),
        STOP: into('done', cancel, stoppedByHook),
      },
    },
    tool_executing: {
      on: {
        'TOOLS.DONE': [
          { guard: batch('next'), ...into('thinking', toolsDone, finishBatch) },
          { guard: batch('waiting'), ...into('waiting_user', toolsDone, waitForAnswer) },
          { guard: batch('complete'), ...into('done', toolsDone, finishBatch, complete) },
          { guard: batch('limit'), ...into('done', toolsDone, finishBatch, stopAtLimit) },
        ],
        'TOOLS.ASK': { guard: 'current', ...into('waiting_user', askPermission) },
        'TOOLS.RESULT': { guard: 'current', actions: run(keepResult) },
        STEER: { actions: run(steerTools) },
        RESUME: { actions: run(resumeTools) },
        ABORT: into('aborted', cancel, interruptedBatch, aborted),
        LIMIT: into('done', cancel, interruptedBatch, limited),
      },
    },
    waiting_user: {
      on: {
        APPROVE: [
          { guard: 'interrupts', ...into('done', interruptedBatch, (c) => endRun(c, { stopReason: 'interrupted' })) },
          { guard: 'permissionFor', ...into('tool_executing', decide) },
        ],
        REPLY: [
          { guard: 'moreQuestions', ...into('waiting_user', answer) },
          { guard: batch('next'), ...into('thinking', answer, finishBatch) },
          { guard: batch('complete'), ...into('done', answer, finishBatch, complete) },
          { guard: batch('limit'), ...into('done', answer, finishBatch, stopAtLimit) },
        ],
        ABORT: into('aborted', interruptedBatch, aborted),
        LIMIT: into('done', interruptedBatch, limited),
      },
    },
    done: { on: { ...startFrom, ABORT: into('aborted') } },
    aborted: { on: startFrom },
    error: { on: { ...startFrom, ABORT: into('aborted') } },
  },
});

/** The agent statechart's type. */
export type AgentMachine = typeof agentMachine;

/**
 * The agent statechart compiled for the `Agent`'s runner (see `compiled-chart.ts`): the same
 * chart, without XState's general interpreter on each event.
 */
export const agentChart = compileChart(agentMachine, (action) => (typeof action === 'function' ? reducers.get(action) : undefined));
