/**
 * The agent loop as a transition table, computed by XState's pure `transition()` with the machine's
 * real guards and steps and no Agent: from a state, an event, the state it goes to and the outbox
 * it fills (history appends, events, effect commands), for each transition of a turn — prompt,
 * tool calls, tool results, final answer, retry, compaction, limits, steering, follow-ups, input
 * guardrails and structured output.
 */
import { describe, expect } from 'vitest';
import { after, call, compacted, event, guardDone, guardRejected, modelDone, modelFailed, prompt, reply, result, table, toolsDone, user } from './chart.js';
import { points } from './points.js';

const at = points();
const text = (t: string) => reply([{ type: 'text', text: t }]);
const NEXT_TURN = ['state thinking', 'turn_start 2'];
const RESULTS = [
  'append toolResult',
  'message_start toolResult',
  'message_end toolResult',
  'append toolResult',
  'message_start toolResult',
  'message_end toolResult',
];
const LIMIT_NOTICE = ['append assistant', 'message_start assistant', 'message_update', 'message_update', 'message_update', 'message_end assistant'];

describe('a turn', () => {
  table([
    {
      name: 'a prompt starts a run and asks the model',
      from: at.idle,
      event: prompt(),
      to: { thinking: 'streaming' },
      outbox: ['agent_start', 'state thinking', 'turn_start 1', 'append user', 'message_start user', 'message_end user', 'cmd.model #1'],
      check: (next) => expect(next.context.run).toMatchObject({ startIndex: 0, turns: 1 }),
    },
    {
      name: 'a reply with tool calls runs them',
      from: at.streaming,
      event: modelDone(reply([call('c1'), call('c2')], 'toolUse')),
      to: 'tool_executing',
      outbox: ['append assistant', 'usage', 'state tool_executing', 'cmd.tools #2 [c1,c2]'],
    },
    {
      name: 'the settled batch enters the history in call order and the next turn asks the model',
      from: at.toolExecuting,
      event: toolsDone([result('c2'), result('c1')]),
      to: { thinking: 'streaming' },
      outbox: [...RESULTS, 'turn_end 1', ...NEXT_TURN, 'cmd.model #3'],
    },
    {
      name: 'a text reply ends the run',
      from: at.streaming,
      event: modelDone(text('bye')),
      to: 'done',
      outbox: ['append assistant', 'usage', 'turn_end 1', 'state done', 'run.end stop'],
      check: (next) => expect(next.context).toMatchObject({ historyLength: 2, endsWithReply: true }),
    },
    {
      name: 'a refusal ends the run',
      from: at.streaming,
      event: modelDone(reply([], 'refusal')),
      to: 'done',
      outbox: ['append assistant', 'usage', 'turn_end 1', 'state done', 'run.end refusal'],
    },
    {
      name: 'tool calls cut off by the output limit get error results and the loop goes on',
      from: at.streaming,
      event: modelDone(reply([call('c1')], 'length')),
      to: { thinking: 'streaming' },
      outbox: [
        'append assistant',
        'usage',
        'append toolResult',
        'message_start toolResult',
        'message_end toolResult',
        'turn_end 1',
        ...NEXT_TURN,
        'cmd.model #2',
      ],
    },
    {
      name: 'a retryable failure waits (a delayed event, not a timer of our own)',
      from: at.streaming,
      event: modelFailed('rate_limited', 500),
      to: { thinking: 'retrying' },
      outbox: ['retry 1 in 500ms'],
      actions: ['xstate.raise'], // the delayed `after` event, which the actor's clock (simulated in tests) delivers
      check: (next) => expect(next.context.run?.retry).toMatchObject({ delayMs: 500 }),
    },
    {
      name: 'the retry delay elapsed: the model is asked again',
      // XState's own name for the `after: { retryDelay }` event of `thinking.retrying`.
      from: at.retrying,
      event: event({ type: 'xstate.after.retryDelay.agent.thinking.retrying' } as never),
      to: { thinking: 'streaming' },
      outbox: ['cmd.model #2 attempt 1'],
    },
    {
      name: 'another failure ends the run in error',
      from: at.streaming,
      event: modelFailed('auth'),
      to: 'error',
      outbox: ['append assistant', 'message_start assistant', 'message_end assistant', 'turn_end 1', 'state error', 'run.end error'],
      check: (next) => expect(next.context.endsWithReply).toBe(false),
    },
    {
      name: 'a context overflow compacts',
      from: at.streaming,
      event: modelFailed('overflow'),
      to: { thinking: 'compacting' },
      outbox: ['cmd.compact #2 overflow'],
    },
    {
      name: 'once compacted, the model is asked again',
      from: at.compacting,
      event: compacted(),
      to: { thinking: 'streaming' },
      outbox: ['compaction', 'cmd.model #3'],
    },
    {
      name: 'an overflow after compacting once ends the run',
      from: () => after(at.compacting(), compacted()),
      event: modelFailed('overflow'),
      to: 'error',
      outbox: ['append assistant', 'message_start assistant', 'message_end assistant', 'turn_end 1', 'state error', 'run.end error'],
    },
    {
      name: 'a context over the threshold compacts before the call',
      from: at.streaming,
      event: (s) => event({ type: 'MODEL.COMPACT', request: s.context.request }),
      to: { thinking: 'compacting' },
      outbox: ['cmd.compact #2 threshold'],
    },
    {
      name: 'an answer to an older request is ignored',
      from: at.toolExecuting,
      event: (s) => ({ ...toolsDone([])(s), request: s.context.request - 1 }),
      to: 'tool_executing',
      outbox: [],
    },
  ]);
});

describe('limits, steering and follow-ups', () => {
  const oneTurn = points({ limits: { maxTurns: 1 } });
  table([
    {
      name: 'the turn limit ends the run after the batch, with a notice',
      from: oneTurn.toolExecuting,
      event: toolsDone([result('c1'), result('c2')]),
      to: 'done',
      outbox: [...RESULTS, 'turn_end 1', ...LIMIT_NOTICE, 'state done', 'run.end limit'],
    },
    {
      name: 'a limit reached mid-turn cancels the effects and ends the run',
      from: at.streaming,
      event: event({ type: 'LIMIT', limit: { kind: 'maxWallTimeMs', limit: 10, actual: 10 } }),
      to: 'done',
      outbox: ['cmd.cancel #1 limit', 'turn_end 1', ...LIMIT_NOTICE, 'state done', 'run.end limit'],
    },
    {
      name: "a limit reached while tools run: the open calls get the limit's result",
      from: at.toolExecuting,
      event: event({ type: 'LIMIT', limit: { kind: 'maxCost', limit: 1, actual: 1.5 } }),
      to: 'done',
      outbox: ['cmd.cancel #2 limit', ...RESULTS, 'turn_end 1', ...LIMIT_NOTICE, 'state done', 'run.end limit'],
    },
    {
      name: 'a tool that completes the task ends the run with its value',
      from: at.toolExecuting,
      event: toolsDone([result('c1'), result('c2')], { complete: { value: 42 } }),
      to: 'done',
      outbox: [...RESULTS, 'turn_end 1', 'state done', 'run.end complete'],
      check: (next) => expect(next.context.run?.end).toEqual({ stopReason: 'complete', value: 42 }),
    },
    {
      name: "with a step delay, the next turn's call waits on the clock",
      from: points({ stepDelayMs: 100 }).toolExecuting,
      event: toolsDone([result('c1'), result('c2')]),
      to: { thinking: 'streaming' },
      outbox: [...RESULTS, 'turn_end 1', ...NEXT_TURN, 'cmd.model #3 after 100ms'],
    },
    {
      name: 'a steering message during the tools tells the batch to stop',
      from: at.toolExecuting,
      event: event({ type: 'STEER', message: user('stop that') }),
      to: 'tool_executing',
      outbox: ['cmd.steer #2'],
      check: (next) => expect(next.context.steering).toHaveLength(1),
    },
    {
      name: 'the steering message enters the history before the next call',
      from: at.steered,
      event: toolsDone([result('c1'), result('c2')]),
      to: { thinking: 'streaming' },
      outbox: [...RESULTS, 'turn_end 1', ...NEXT_TURN, 'append user', 'message_start user', 'message_end user', 'cmd.model #3'],
      check: (next) => expect(next.context.steering).toEqual([]),
    },
    {
      name: 'a follow-up is only queued while the model thinks',
      from: at.streaming,
      event: event({ type: 'FOLLOW_UP', message: user('and then?') }),
      to: { thinking: 'streaming' },
      outbox: [],
      check: (next) => expect(next.context.followUps).toHaveLength(1),
    },
    {
      name: 'a queued follow-up turns a final answer into another turn',
      from: () => after(at.streaming(), event({ type: 'FOLLOW_UP', message: user('and then?') })),
      event: modelDone(text('first')),
      to: { thinking: 'streaming' },
      outbox: ['append assistant', 'usage', 'turn_end 1', ...NEXT_TURN, 'append user', 'message_start user', 'message_end user', 'cmd.model #2'],
    },
  ]);
});

describe('input guardrails and structured output', () => {
  const guarded = points({ guardInput: true });
  const schema = points({ outputRetries: 1 });
  const notJson = { ok: false as const, problem: 'not JSON' };
  table([
    {
      name: 'a guarded prompt waits for the guardrails, out of the history',
      from: guarded.idle,
      event: prompt(),
      to: { thinking: 'guarding' },
      outbox: ['agent_start', 'cmd.guard #1'],
      check: (next) => expect(next.context.historyLength).toBe(0),
    },
    {
      name: 'the guardrails pass: the checked prompt starts the turn',
      from: guarded.streaming,
      event: guardDone(),
      to: { thinking: 'streaming' },
      outbox: ['state thinking', 'turn_start 1', 'append user', 'message_start user', 'message_end user', 'cmd.model #2'],
    },
    {
      name: 'a guardrail rejects the prompt',
      from: guarded.streaming,
      event: guardRejected(),
      to: 'done',
      outbox: ['input_rejected deny', 'state done', 'run.end rejected'],
    },
    {
      name: 'a guardrail that throws fails the run',
      from: guarded.streaming,
      event: guardRejected({ code: 'guardrail_failed', message: 'boom' }),
      to: 'error',
      outbox: ['state error', 'run.end error'],
    },
    {
      name: 'a final answer that is not the JSON asked for is asked for again',
      from: schema.streaming,
      event: modelDone(text('nope'), notJson),
      to: { thinking: 'streaming' },
      outbox: ['append assistant', 'usage', 'turn_end 1', ...NEXT_TURN, 'append user', 'message_start user', 'message_end user', 'cmd.model #2'],
    },
    {
      name: 'with no retry left, it fails the run',
      from: () => after(schema.streaming(), modelDone(text('nope'), notJson)),
      event: modelDone(text('still no'), notJson),
      to: 'error',
      outbox: ['append assistant', 'usage', 'turn_end 2', 'state error', 'run.end error'],
    },
    {
      name: 'a matching final answer ends the run with its value',
      from: schema.streaming,
      event: modelDone(text('{"a":1}'), { ok: true, value: { a: 1 } }),
      to: 'done',
      outbox: ['append assistant', 'usage', 'turn_end 1', 'state done', 'run.end stop'],
      check: (next) => expect(next.context.run?.end).toEqual({ stopReason: 'stop', value: { a: 1 } }),
    },
  ]);
});
