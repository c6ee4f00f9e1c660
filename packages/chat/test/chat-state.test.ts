/**
 * The chat state as plain logic, without a terminal: events of the run build the conversation
 * (streamed text, tool blocks, asks, turns, tokens, the context gauge per turn), and the user's
 * actions change blocks, modes, approvals and trust; plan mode hands the agent only read-only tools.
 */
import { emptyUsage, type Tool } from '@troupe/core';
import { describe, expect, it } from 'vitest';
import {
  automaticDecision,
  collapseBlock,
  executePlanMessage,
  gaugeBar,
  gaugeLevel,
  gaugePercent,
  initialChatState,
  latestPlan,
  PLAN_PREFIX,
  planAwareTools,
  promptFor,
  reduceEvent,
  selectBlock,
  setApproval,
  setMode,
  toggleBlock,
  trustTool,
  type ChatMode,
  type ChatState,
} from '../src/index.js';
import { ev, reply } from './support/events.js';

const fresh = (): ChatState => initialChatState({ entry: 'assistant', model: 'scripted:test', contextWindow: 1000 });

describe('events build the conversation', () => {
  it('grows the streaming reply delta by delta, then takes the final text', () => {
    let state = reduceEvent(fresh(), ev({ type: 'message_start', role: 'assistant' }));
    state = reduceEvent(state, ev({ type: 'message_update', delta: { type: 'text_delta', index: 0, delta: 'Hel' } }));
    expect(state.blocks).toMatchObject([{ kind: 'assistant', text: 'Hel', streaming: true }]);
    state = reduceEvent(state, ev({ type: 'message_update', delta: { type: 'text_delta', index: 0, delta: 'lo' } }));
    expect(state.blocks).toMatchObject([{ kind: 'assistant', text: 'Hello', streaming: true }]);
    state = reduceEvent(state, ev({ type: 'message_end', role: 'assistant', message: reply('Hello!') }));
    expect(state.blocks).toMatchObject([{ kind: 'assistant', text: 'Hello!', streaming: false }]);
  });

  it('drops a failed attempt, whose retry streams again', () => {
    let state = reduceEvent(fresh(), ev({ type: 'message_start', role: 'assistant' }));
    state = reduceEvent(state, ev({ type: 'message_update', delta: { type: 'text_delta', index: 0, delta: 'par' } }));
    state = reduceEvent(state, ev({ type: 'message_end', role: 'assistant', failed: { code: 'network', message: 'reset' } }));
    expect(state.blocks).toEqual([]);
  });

  it('makes each tool call a block, expanded while new, with its status and output', () => {
    let state = reduceEvent(fresh(), ev({ type: 'tool_start', toolCallId: 'c1', toolName: 'read_file', args: { path: 'a.ts' } }));
    expect(state.blocks).toMatchObject([{ kind: 'tool', name: 'read_file', status: 'running', expanded: true }]);
    const result = {
      role: 'toolResult' as const,
      toolCallId: 'c1',
      toolName: 'read_file',
      content: [{ type: 'text' as const, text: 'line 1\nline 2' }],
      isError: false,
      timestamp: 1,
    };
    state = reduceEvent(state, ev({ type: 'tool_end', toolCallId: 'c1', toolName: 'read_file', result }));
    expect(state.blocks).toMatchObject([{ kind: 'tool', status: 'done', output: 'line 1\nline 2' }]);
  });

  it('keeps permission requests and questions as asks until the tool ends, the call shown meanwhile', () => {
    let state = reduceEvent(fresh(), ev({ type: 'permission_request', toolCallId: 'c1', toolName: 'write_file', args: { path: 'a', content: 'x' } }));
    expect(state.asks).toMatchObject([{ kind: 'permission', callId: 'c1', path: 'assistant' }]);
    expect(state.blocks).toMatchObject([{ kind: 'tool', callId: 'c1', status: 'waiting', expanded: true }]);
    state = reduceEvent(state, ev({ type: 'tool_start', toolCallId: 'c1', toolName: 'write_file', args: { path: 'a', content: 'x' } }));
    expect(state.blocks).toMatchObject([{ kind: 'tool', callId: 'c1', status: 'running' }]);
    state = reduceEvent(state, ev({ type: 'question', toolCallId: 'q1', toolName: 'ask_user', question: 'Which?' }, 'assistant/helper#1'));
    expect(state.asks.map((a) => a.callId)).toEqual(['c1', 'q1']);
    const result = { role: 'toolResult' as const, toolCallId: 'c1', toolName: 'write_file', content: [], isError: false, timestamp: 1 };
    state = reduceEvent(state, ev({ type: 'tool_end', toolCallId: 'c1', toolName: 'write_file', result }));
    expect(state.asks.map((a) => a.callId)).toEqual(['q1']);
  });

  it("follows the entry's state, turns, tokens and cost; an abort shows as a notice", () => {
    let state = reduceEvent(fresh(), ev({ type: 'agent_start', sessionId: 's' }));
    state = reduceEvent(state, ev({ type: 'state', state: 'thinking' }));
    state = reduceEvent(state, ev({ type: 'state', state: 'tool_executing' }, 'assistant/helper#1'));
    expect(state).toMatchObject({ running: true, agentState: 'thinking' });
    const usage = { ...emptyUsage(), totalTokens: 30, cost: { ...emptyUsage().cost, total: 0.5 } };
    state = reduceEvent(state, ev({ type: 'usage', usage, total: usage }));
    state = reduceEvent(state, ev({ type: 'usage', usage, total: usage }, 'assistant/helper#1'));
    state = reduceEvent(state, ev({ type: 'turn_end', turn: 1, toolResults: [] }));
    expect(state).toMatchObject({ turns: 1, tokens: 60, cost: 1 });
    const result = { runId: 'run_test', stopReason: 'aborted', messages: [], text: '', usage: emptyUsage(), turns: 1 };
    state = reduceEvent(state, ev({ type: 'agent_end', result } as never));
    expect(state.running).toBe(false);
    expect(state.blocks.at(-1)).toMatchObject({ kind: 'notice', text: '■ aborted' });
  });

  it("estimates the context from the entry's messages and shows it at each turn's end only", () => {
    const long = 'x'.repeat(400);
    let state = reduceEvent(fresh(), ev({ type: 'message_end', role: 'user', message: { role: 'user', content: long, timestamp: 1 } }));
    expect(state.context.tokens).toBe(0);
    state = reduceEvent(state, ev({ type: 'turn_end', turn: 1, toolResults: [] }));
    expect(state.context.tokens).toBe(104);
    expect(gaugePercent(state.context)).toBe(10);
    expect(state.blocks).toMatchObject([{ kind: 'user', text: long }]);
  });

  it('shows a prompt sent in plan mode without its plan prefix', () => {
    const state = reduceEvent(
      fresh(),
      ev({ type: 'message_end', role: 'user', message: { role: 'user', content: promptFor('Fix it', 'plan'), timestamp: 1 } }),
    );
    expect(state.blocks).toMatchObject([{ kind: 'user', text: 'Fix it' }]);
  });

  it('indents nothing but labels blocks of sub-agents with their paths', () => {
    const state = reduceEvent(fresh(), ev({ type: 'tool_start', toolCallId: 'c9', toolName: 'search', args: {} }, 'assistant/researcher#1'));
    expect(state.blocks).toMatchObject([{ kind: 'tool', path: 'assistant/researcher#1' }]);
  });
});

describe('actions', () => {
  const withTools = (): ChatState => {
    let state = fresh();
    for (const id of ['a', 'b', 'c']) state = reduceEvent(state, ev({ type: 'tool_start', toolCallId: id, toolName: 'read_file', args: {} }));
    const result = { role: 'toolResult' as const, toolCallId: 'a', toolName: 'read_file', content: [], isError: false, timestamp: 1 };
    return ['a', 'b', 'c'].reduce(
      (s, id) => reduceEvent(s, ev({ type: 'tool_end', toolCallId: id, toolName: 'read_file', result: { ...result, toolCallId: id } })),
      state,
    );
  };

  it('collapses a finished block after its time, but not one the user toggled', () => {
    let state = withTools();
    const [a, b] = state.blocks;
    state = collapseBlock(state, a?.id ?? 0);
    expect(state.blocks[0]).toMatchObject({ expanded: false });
    state = selectBlock(state, 1);
    state = selectBlock(state, -1);
    expect(state.selected).toBe(b?.id);
    state = toggleBlock(state);
    expect(state.blocks[1]).toMatchObject({ expanded: false, pinned: true });
    state = toggleBlock(state);
    state = collapseBlock(state, b?.id ?? 0);
    expect(state.blocks[1]).toMatchObject({ expanded: true });
  });

  it('asks in smart mode until a tool is trusted; asks always in on; never in off', () => {
    let state = fresh();
    expect(automaticDecision(state, 'write_file')).toBe('ask');
    state = trustTool(state, 'write_file');
    expect(automaticDecision(state, 'write_file')).toBe('allow_once');
    expect(automaticDecision(state, 'bash')).toBe('ask');
    expect(automaticDecision(setApproval(state, 'on'), 'write_file')).toBe('ask');
    expect(automaticDecision(setApproval(state, 'off'), 'bash')).toBe('allow_once');
  });

  it('labels replies written in plan mode and finds the latest plan', () => {
    let state = setMode(fresh(), 'plan');
    state = reduceEvent(state, ev({ type: 'message_start', role: 'assistant' }));
    state = reduceEvent(state, ev({ type: 'message_end', role: 'assistant', message: reply('1. read\n2. edit') }));
    state = setMode(state, 'execute');
    state = reduceEvent(state, ev({ type: 'message_start', role: 'assistant' }));
    expect(state.blocks.map((b) => b.kind === 'assistant' && b.plan)).toEqual([true, false]);
    expect(latestPlan(state)).toBe('1. read\n2. edit');
    expect(executePlanMessage('1. read')).toContain('Carry out this plan');
    expect(promptFor('x', 'plan')).toBe(`${PLAN_PREFIX}x`);
  });
});

describe('plan mode tools', () => {
  const tool = (name: string, readOnly: boolean): Tool => ({
    name,
    description: name,
    parameters: { type: 'object' },
    readOnly,
    execute: () => ({ content: '' }),
  });

  it('hands out only read-only tools in plan, every tool in execute, the same array while nothing changes', () => {
    let mode: ChatMode = 'execute';
    const source = planAwareTools([tool('read_file', true), tool('write_file', false), tool('bash', false)], () => mode);
    expect(source.current().map((t) => t.name)).toEqual(['read_file', 'write_file', 'bash']);
    mode = 'plan';
    expect(source.current().map((t) => t.name)).toEqual(['read_file']);
    expect(source.current()).toBe(source.current());
    mode = 'execute';
    expect(source.current()).toHaveLength(3);
  });
});

describe('context gauge', () => {
  it('is green below 60%, yellow from 60% to 85%, red above 85%', () => {
    expect([59, 60, 85, 86].map(gaugeLevel)).toEqual(['green', 'yellow', 'yellow', 'red']);
    expect(gaugePercent({ tokens: 590, window: 1000 })).toBe(59);
    expect(gaugePercent({ tokens: 5, window: undefined })).toBe(0);
    expect(gaugeBar(50, 10)).toBe('█████░░░░░');
  });
});
