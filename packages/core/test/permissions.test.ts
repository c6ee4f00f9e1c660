/**
 * Permissions (behaviour 8): a policy maps each call to allow, ask or deny. `smart` — the default
 * when an agent sets none — allows read-only tools and asks for the rest, and a read-only tool is
 * never asked about in any mode but `deny` (`ask` included). Asking enters `waiting_user` with a
 * permission_request naming the call, and `approve(callId, decision)` resolves it: `allow_once`,
 * `allow_always` (remembered for the session), `deny_interrupt` (every unfinished call gets the flow
 * spec's interrupt text with its explanation, no further tool runs, the run stops and waits for the
 * next prompt) or `deny_never` (remembered; the call gets "Permission to use X has been permanently
 * denied" and the loop goes on). A policy's deny gives "Permission to use X has been denied".
 */
import { describe, expect, it } from 'vitest';
import {
  Agent,
  evaluatePermission,
  INTERRUPT_EXPLANATION,
  INTERRUPT_TOOL,
  permissionDenied,
  permissionDeniedPermanently,
  textOf,
  type AgentEvent,
  type Tool,
  type ToolResultMessage,
} from '../src/index.js';
import { createScriptedProvider } from '../src/testing.js';
import { echoTool, nextEvent } from './support.js';

function counting(name: string, readOnly: boolean): Tool & { runs: number } {
  const tool = {
    ...echoTool(),
    name,
    readOnly,
    runs: 0,
    execute: (args: Record<string, unknown>) => {
      tool.runs += 1;
      return { content: `${name}:${String(args['text'])}` };
    },
  };
  return tool;
}

function results(messages: readonly { role: string }[]): ToolResultMessage[] {
  return messages.filter((m): m is ToolResultMessage => m.role === 'toolResult');
}

const call = (name: string, text = 'x') => ({ name, arguments: { text } });

describe('permissions', () => {
  it('evaluates modes, per-tool overrides, remembered decisions and functions', () => {
    const c = { type: 'toolCall' as const, id: '1', name: 'write', arguments: {} };
    const write = counting('write', false);
    const read = counting('read', true);
    expect(evaluatePermission({ mode: 'allow' }, {}, c, write)).toBe('allow');
    expect(evaluatePermission({ mode: 'deny' }, {}, c, write)).toBe('deny');
    expect(evaluatePermission({ mode: 'ask' }, {}, c, write)).toBe('ask');
    expect(evaluatePermission({ mode: 'ask' }, {}, { ...c, name: 'read' }, read)).toBe('allow');
    expect(evaluatePermission({ mode: 'deny' }, {}, { ...c, name: 'read' }, read)).toBe('deny');
    expect(evaluatePermission({ mode: 'ask', tools: { read: 'ask' } }, {}, { ...c, name: 'read' }, read)).toBe('ask');
    expect(evaluatePermission({ mode: 'smart' }, {}, c, write)).toBe('ask');
    expect(evaluatePermission({ mode: 'smart' }, {}, { ...c, name: 'read' }, read)).toBe('allow');
    expect(evaluatePermission({ mode: 'ask', tools: { write: 'deny' } }, {}, c, write)).toBe('deny');
    expect(evaluatePermission({ mode: 'ask' }, { write: 'allow' }, c, write)).toBe('allow');
    expect(evaluatePermission(() => 'deny', {}, c, write)).toBe('deny');
  });

  it('by default runs read-only tools and asks for the others', async () => {
    const write = counting('write', false);
    const read = counting('read', true);
    const provider = createScriptedProvider([{ toolCalls: [call('read', 'a')] }, { toolCalls: [call('write', 'b')] }, { text: 'done' }]);
    const agent = new Agent({ provider, model: 'm', tools: [write, read] });
    const ask = nextEvent(agent, 'permission_request');
    const result = agent.prompt('go');
    expect(await ask).toMatchObject({ toolCallId: 'call_2_1', toolName: 'write' });
    expect([read.runs, write.runs]).toEqual([1, 0]);
    agent.approve('call_2_1', 'allow_once');
    expect((await result).stopReason).toBe('stop');
    expect(write.runs).toBe(1);
  });

  it('never asks about a read-only tool in ask mode', async () => {
    const read = counting('read', true);
    const provider = createScriptedProvider([{ toolCalls: [call('read'), call('read')] }, { text: 'done' }]);
    const agent = new Agent({ provider, model: 'm', tools: [read], permissions: { mode: 'ask' } });
    const events: AgentEvent[] = [];
    agent.events$.subscribe((e) => events.push(e));
    expect((await agent.prompt('go')).stopReason).toBe('stop');
    expect(read.runs).toBe(2);
    expect(events.some((e) => e.type === 'permission_request')).toBe(false);
  });

  it('asks, then runs the call on allow_once and asks again next time', async () => {
    const write = counting('write', false);
    const provider = createScriptedProvider([{ toolCalls: [call('write', 'a')] }, { toolCalls: [call('write', 'b')] }, { text: 'done' }]);
    const agent = new Agent({ provider, model: 'm', tools: [write], permissions: { mode: 'smart' } });
    const asked: AgentEvent[] = [];
    agent.events$.subscribe((e) => e.type === 'permission_request' && asked.push(e));
    const firstAsk = nextEvent(agent, 'permission_request');
    const result = agent.prompt('go');
    const request = await firstAsk;
    expect(request).toMatchObject({ toolCallId: 'call_1_1', toolName: 'write', args: { text: 'a' } });
    expect(agent.state).toBe('waiting_user');
    expect(agent.pending).toEqual({ kind: 'permission', callId: 'call_1_1', toolName: 'write', args: { text: 'a' } });
    expect(write.runs).toBe(0);
    const secondAsk = nextEvent(agent, 'permission_request', (e) => e.toolCallId === 'call_2_1');
    agent.approve('call_1_1', 'allow_once');
    await secondAsk;
    expect(write.runs).toBe(1);
    agent.approve('call_2_1', 'allow_once');
    const outcome = await result;
    expect(outcome.stopReason).toBe('stop');
    expect(write.runs).toBe(2);
    expect(asked).toHaveLength(2);
  });

  it('remembers allow_always for the session', async () => {
    const write = counting('write', false);
    const provider = createScriptedProvider([
      { toolCalls: [call('write')] },
      { toolCalls: [call('write')] },
      { text: 'one' },
      { toolCalls: [call('write')] },
      { text: 'two' },
    ]);
    const agent = new Agent({ provider, model: 'm', tools: [write], permissions: { mode: 'ask' } });
    const ask = nextEvent(agent, 'permission_request');
    const first = agent.prompt('go');
    agent.approve((await ask).toolCallId, 'allow_always');
    expect((await first).stopReason).toBe('stop');
    expect((await agent.prompt('again')).stopReason).toBe('stop');
    expect(write.runs).toBe(3);
  });

  it('deny_never refuses the call as permanently denied, remembers it, and goes on', async () => {
    const write = counting('write', false);
    const provider = createScriptedProvider([{ toolCalls: [call('write')] }, { toolCalls: [call('write')] }, { text: 'gave up' }]);
    const agent = new Agent({ provider, model: 'm', tools: [write], permissions: { mode: 'ask' } });
    const ask = nextEvent(agent, 'permission_request');
    const result = agent.prompt('go');
    agent.approve((await ask).toolCallId, 'deny_never');
    const outcome = await result;
    expect(outcome.stopReason).toBe('stop');
    expect(write.runs).toBe(0);
    const permanently = 'Permission to use write has been permanently denied';
    expect(permissionDeniedPermanently('write')).toBe(permanently);
    expect(results(outcome.messages).map((r) => [r.isError, textOf(r)])).toEqual([
      [true, permanently],
      [true, permanently],
    ]);
  });

  it('deny_interrupt interrupts the turn, runs nothing more, and waits for the next prompt', async () => {
    const write = counting('write', false);
    const read = counting('read', true);
    const provider = createScriptedProvider([{ toolCalls: [call('read'), call('write'), call('read')] }, { text: 'what next?' }]);
    const agent = new Agent({ provider, model: 'm', tools: [write, read], permissions: { mode: 'smart' } });
    const ask = nextEvent(agent, 'permission_request');
    const result = agent.prompt('go');
    agent.approve((await ask).toolCallId, 'deny_interrupt');
    const outcome = await result;
    expect(outcome.stopReason).toBe('interrupted');
    expect(agent.state).toBe('done');
    expect(write.runs + read.runs).toBe(0);
    expect(provider.requests).toHaveLength(1);
    const interrupted = `[Request interrupted by user for tool use]\n\n${INTERRUPT_EXPLANATION}`;
    expect(INTERRUPT_TOOL).toBe('[Request interrupted by user for tool use]');
    expect(results(outcome.messages).map((r) => [r.toolCallId, r.isError, textOf(r)])).toEqual([
      ['call_1_1', true, interrupted],
      ['call_1_2', true, interrupted],
      ['call_1_3', true, interrupted],
    ]);
    // The next prompt goes on from a valid history.
    expect((await agent.prompt('do it differently')).text).toBe('what next?');
  });

  it('denies by policy without asking', async () => {
    const write = counting('write', false);
    const agent = new Agent({
      provider: createScriptedProvider([{ toolCalls: [call('write')] }, { text: 'ok' }]),
      model: 'm',
      tools: [write],
      permissions: { mode: 'deny' },
    });
    const outcome = await agent.prompt('go');
    expect(results(outcome.messages).map(textOf)).toEqual(['Permission to use write has been denied']);
    expect(permissionDenied('write')).toBe('Permission to use write has been denied');
  });

  it('rejects an approval for a call it is not waiting on', async () => {
    const write = counting('write', false);
    const agent = new Agent({
      provider: createScriptedProvider([{ toolCalls: [call('write')] }, { text: 'ok' }]),
      model: 'm',
      tools: [write],
      permissions: { mode: 'ask' },
    });
    expect(() => agent.approve('nope', 'allow_once')).toThrow(expect.objectContaining({ code: 'not_waiting' }));
    const ask = nextEvent(agent, 'permission_request');
    const result = agent.prompt('go');
    await ask;
    expect(() => agent.approve('call_9_9', 'allow_once')).toThrow(expect.objectContaining({ code: 'not_waiting' }));
    expect(() => agent.approve('call_1_1', 'maybe' as never)).toThrow(/unknown decision/);
    agent.approve('call_1_1', 'allow_once');
    expect((await result).stopReason).toBe('stop');
  });
});
