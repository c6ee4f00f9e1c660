/**
 * The agent statechart's transitions around the user, as a table computed by XState's pure
 * `transition()` (no Agent, no effect): permission requests and questions in `waiting_user` and
 * the answers that leave it, an abort from each state (a limit too), a hook that stops the run, `RESUME`
 * re-issuing each active state's effect after a restore, and the between-run calls that replace
 * the history (which the machine only counts).
 */
import { describe, expect } from 'vitest';
import { createRunId } from '../../src/ids.js';
import { emptyUsage } from '../../src/usage.js';
import { after, event, fresh, prompt, result, T0, table, toolsDone, user } from './chart.js';
import { points, QUESTION } from './points.js';

const at = points();
const guarded = points({ guardInput: true });
const RESULTS = [
  'append toolResult',
  'message_start toolResult',
  'message_end toolResult',
  'append toolResult',
  'message_start toolResult',
  'message_end toolResult',
];
const INTERRUPTED_BY_USER = ['append user', 'message_start user', 'message_end user'];
const LIMIT_NOTICE = ['append assistant', 'message_start assistant', 'message_update', 'message_update', 'message_update', 'message_end assistant'];

describe('waiting for the user', () => {
  table([
    {
      name: 'a call that needs approval asks for it',
      from: at.toolExecuting,
      event: (s) => event({ type: 'TOOLS.ASK', request: s.context.request, callId: 'c1', results: [] }),
      to: 'waiting_user',
      outbox: ['state waiting_user', 'permission_request c1'],
      check: (next) => expect(next.context.pending).toMatchObject({ kind: 'permission', callId: 'c1', toolName: 'echo' }),
    },
    {
      name: 'an approval runs the batch again, with the decision',
      from: at.permission,
      event: event({ type: 'APPROVE', callId: 'c1', decision: 'allow_once' }),
      to: 'tool_executing',
      outbox: ['state tool_executing', 'cmd.tools #3 [c1,c2]'],
      check: (next) => expect(next.context.run?.batch?.decisions).toEqual({ c1: 'allow' }),
    },
    {
      name: '"always allow" is remembered for the session',
      from: at.permission,
      event: event({ type: 'APPROVE', callId: 'c1', decision: 'allow_always' }),
      to: 'tool_executing',
      outbox: ['state tool_executing', 'cmd.tools #3 [c1,c2]'],
      check: (next) => expect(next.context.permissions).toEqual({ echo: 'allow' }),
    },
    {
      name: 'a decision on another call is ignored',
      from: at.permission,
      event: event({ type: 'APPROVE', callId: 'c2', decision: 'allow_once' }),
      to: 'waiting_user',
      outbox: [],
    },
    {
      name: '"deny and interrupt" ends the run with interrupt results for the open calls',
      from: at.permission,
      event: event({ type: 'APPROVE', callId: 'c1', decision: 'deny_interrupt' }),
      to: 'done',
      outbox: [...RESULTS, 'turn_end 1', 'state done', 'run.end interrupted'],
    },
    {
      name: 'a call suspended with a question asks it',
      from: at.toolExecuting,
      event: toolsDone([result('c1')], { suspended: [QUESTION] }),
      to: 'waiting_user',
      outbox: ['state waiting_user', 'question c2'],
    },
    {
      name: "the reply is the call's result, and the loop goes on",
      from: at.question,
      event: event({ type: 'REPLY', answer: 'the first' }),
      to: { thinking: 'streaming' },
      outbox: ['tool_end c2', ...RESULTS, 'turn_end 1', 'state thinking', 'turn_start 2', 'cmd.model #3'],
    },
  ]);
});

describe('an abort from each state (and a limit while waiting)', () => {
  const abort = () => event({ type: 'ABORT' });
  table([
    {
      name: 'before any run: nothing to end',
      from: at.idle,
      event: abort,
      to: 'aborted',
      outbox: ['state aborted'],
    },
    {
      name: "while the model streams: cancelled, and recorded as the user's interruption",
      from: at.streaming,
      event: abort,
      to: 'aborted',
      outbox: ['cmd.cancel #1 abort', 'turn_end 1', ...INTERRUPTED_BY_USER, 'state aborted', 'run.end aborted'],
    },
    {
      name: 'while a retry waits',
      from: at.retrying,
      event: abort,
      to: 'aborted',
      outbox: ['cmd.cancel #1 abort', 'turn_end 1', ...INTERRUPTED_BY_USER, 'state aborted', 'run.end aborted'],
    },
    {
      name: 'while compacting',
      from: at.compacting,
      event: abort,
      to: 'aborted',
      outbox: ['cmd.cancel #2 abort', 'turn_end 1', ...INTERRUPTED_BY_USER, 'state aborted', 'run.end aborted'],
    },
    {
      name: 'while the guardrails check the prompt: no turn began',
      from: guarded.streaming,
      event: abort,
      to: 'aborted',
      outbox: ['cmd.cancel #1 abort', 'state aborted', 'run.end aborted'],
    },
    {
      name: 'while tools run: cancelled, and every open call gets an interrupt result',
      from: at.toolExecuting,
      event: event({ type: 'ABORT', results: [result('c1')] }),
      to: 'aborted',
      outbox: ['cmd.cancel #2 abort', ...RESULTS, 'turn_end 1', 'state aborted', 'run.end aborted'],
      check: (next) => expect(next.context.run?.batch?.results.c1?.isError).toBe(false),
    },
    {
      name: 'while waiting for the user: nothing runs to cancel',
      from: at.permission,
      event: abort,
      to: 'aborted',
      outbox: [...RESULTS, 'turn_end 1', 'state aborted', 'run.end aborted'],
    },
    {
      name: 'a limit while waiting for the user ends the run the same way',
      from: at.question,
      event: event({ type: 'LIMIT', limit: { kind: 'maxWallTimeMs', limit: 10, actual: 10 } }),
      to: 'done',
      outbox: [...RESULTS, 'turn_end 1', ...LIMIT_NOTICE, 'state done', 'run.end limit'],
    },
    {
      name: 'after a run: the ended run is not reported again',
      from: at.done,
      event: abort,
      to: 'aborted',
      outbox: ['state aborted'],
    },
  ]);
});

describe('a hook that stops the run', () => {
  table([
    {
      name: 'the refused turn is not counted',
      from: at.streaming,
      event: event({ type: 'STOP', reason: 'enough' }),
      to: 'done',
      outbox: ['cmd.cancel #1 abort', 'state done', 'run.end stopped'],
      check: (next) => expect(next.context.run?.turns).toBe(0),
    },
  ]);
});

describe('RESUME re-issues the effect of the state a snapshot was taken in', () => {
  const resume = () => event({ type: 'RESUME' });
  table([
    { name: 'the model call', from: at.streaming, event: resume, to: { thinking: 'streaming' }, outbox: ['cmd.model #2'] },
    { name: 'the compaction, for its reason', from: at.compacting, event: resume, to: { thinking: 'compacting' }, outbox: ['cmd.compact #3 overflow'] },
    {
      name: 'the retry delay, re-armed for the time left',
      from: at.retrying,
      event: resume,
      to: { thinking: 'retrying' },
      outbox: [],
      actions: ['xstate.cancel', 'xstate.raise'],
    },
    { name: 'the guardrails, on the held prompt', from: guarded.streaming, event: resume, to: { thinking: 'guarding' }, outbox: ['cmd.guard #2'] },
    {
      name: 'the open calls of the batch',
      from: () =>
        after(
          at.toolExecuting(),
          (s) => event({ type: 'TOOLS.ASK', request: s.context.request, callId: 'c2', results: [result('c1')] }),
          event({ type: 'APPROVE', callId: 'c2', decision: 'allow_once' }),
        ),
      event: resume,
      to: 'tool_executing',
      outbox: ['state tool_executing', 'cmd.tools #4 [c1,c2] skip [c1]'],
    },
    { name: 'nothing while waiting for the user', from: at.question, event: resume, to: 'waiting_user', outbox: [] },
  ]);
});

describe('between runs: the history is replaced by the Agent, counted by the machine', () => {
  table([
    {
      name: 'replaceMessages',
      from: at.done,
      event: event({ type: 'SET_MESSAGES', messages: [user('a'), user('b'), user('c')] }),
      to: 'done',
      outbox: ['replace 3'],
      check: (next) => expect(next.context).toMatchObject({ historyLength: 3, endsWithReply: false }),
    },
    {
      name: 'reset',
      from: at.done,
      event: event({ type: 'RESET', sessionId: 'new' }),
      to: 'idle',
      outbox: ['replace 0'],
      check: (next) => expect(next.context).toMatchObject({ historyLength: 0, endsWithReply: false, run: null, sessionId: 'new' }),
    },
    {
      name: 'a new run starts where the history ends',
      from: at.done,
      event: prompt('again'),
      to: { thinking: 'streaming' },
      outbox: ['agent_start', 'state thinking', 'turn_start 1', 'append user', 'message_start user', 'message_end user', 'cmd.model #2'],
      check: (next) => expect(next.context.run).toMatchObject({ startIndex: 2, turns: 1 }),
    },
    {
      name: 'a machine started on a history counts it',
      from: () => fresh({}, { messages: [user('a'), { role: 'assistant', content: [], stopReason: 'stop', usage: emptyUsage(), model: 'm', timestamp: 0 }] }),
      event: event({ type: 'CONTINUE', runId: createRunId(T0) }),
      to: { thinking: 'streaming' },
      outbox: ['agent_start', 'state thinking', 'turn_start 1', 'cmd.model #1'],
      check: (next, from) => {
        expect(from.context).toMatchObject({ historyLength: 2, endsWithReply: true });
        expect(next.context.run?.startIndex).toBe(2);
      },
    },
  ]);
});
