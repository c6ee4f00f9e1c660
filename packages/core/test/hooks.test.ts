/**
 * Hooks (behaviour 13): within a turn they run in the documented order — beforeTurn →
 * transformContext → model call → beforeToolCall → execute → afterToolCall → afterTurn.
 * transformContext changes what the model sees but not the stored history; a beforeToolCall veto
 * gives the call an error result with the reason and the tool does not run; afterToolCall can
 * replace a result; a throwing hook becomes an `error` event or an error result, never a crash.
 */
import { describe, expect, it } from 'vitest';
import { Agent, textOf, type AgentHooks, type AgentOptions, type Message } from '../src/index.js';
import { createScriptedProvider, type ScriptStep } from '../src/testing.js';
import { ALLOW, record } from './support.js';
import { capturingProvider, countingTool, eventsOf, loggingProvider, resultsOf } from './support-extra.js';

function setup(script: ScriptStep[], hooks: AgentHooks, log: string[] = [], extra: Partial<AgentOptions> = {}) {
  const provider = capturingProvider(createScriptedProvider(script));
  const tool = countingTool('work', (args, id) => {
    log.push(`execute ${id}`);
    return { content: `worked on ${String(args['item'] ?? id)}` };
  });
  const agent = new Agent({ provider: loggingProvider(provider, log), model: 'test', permissions: ALLOW, tools: [tool.tool], hooks, ...extra });
  return { agent, provider, tool, events: record(agent) };
}

const work = (item: string) => ({ name: 'work', arguments: { item } });

describe('hooks', () => {
  it('run in the documented order within each turn', async () => {
    const log: string[] = [];
    const hooks: AgentHooks = {
      beforeTurn: ({ turn }) => void log.push(`beforeTurn ${turn}`),
      transformContext: (messages) => (log.push(`transformContext ${messages.length}`), messages),
      beforeToolCall: (call) => void log.push(`beforeToolCall ${call.id}`),
      afterToolCall: (call) => void log.push(`afterToolCall ${call.id}`),
      afterTurn: ({ turn, toolResults }) => void log.push(`afterTurn ${turn} ${toolResults.length}`),
    };
    const { agent } = setup([{ toolCalls: [work('a'), work('b')] }, { text: 'done' }], hooks, log, { toolExecution: { mode: 'sequential' } });
    const result = await agent.prompt('go');
    expect(result.stopReason).toBe('stop');
    expect(log).toEqual([
      'beforeTurn 1',
      'transformContext 1',
      'model',
      'beforeToolCall call_1_1',
      'execute call_1_1',
      'afterToolCall call_1_1',
      'beforeToolCall call_1_2',
      'execute call_1_2',
      'afterToolCall call_1_2',
      'afterTurn 1 2',
      'beforeTurn 2',
      'transformContext 4',
      'model',
      'afterTurn 2 0',
    ]);
  });

  it('transformContext changes what the model sees, not the history', async () => {
    const note: Message = { role: 'user', content: 'remember: be brief', timestamp: 0 };
    const seenByHook: number[] = [];
    const hooks: AgentHooks = {
      transformContext: async (messages, { signal }) => {
        expect(signal.aborted).toBe(false);
        seenByHook.push(messages.length);
        return [note, ...messages.filter((m) => m.role !== 'toolResult' || !textOf(m).includes('secret'))];
      },
    };
    const { agent, provider } = setup([{ toolCalls: [work('secret')] }, { text: 'ok' }], hooks);
    const result = await agent.prompt('go');
    expect(seenByHook).toEqual([1, 3]);
    expect(provider.seen.map((messages) => messages.map((m) => m.role))).toEqual([
      ['user', 'user'],
      ['user', 'user', 'assistant'],
    ]);
    expect(provider.seen[0]?.[0]).toBe(note);
    expect(agent.messages.map((m) => m.role)).toEqual(['user', 'assistant', 'toolResult', 'assistant']);
    expect(agent.messages).not.toContain(note);
    expect(resultsOf(result.messages)).toEqual([['call_1_1', 'worked on secret', false]]);
  });

  it('beforeToolCall can veto a call: error result with the reason, tool not run', async () => {
    const hooks: AgentHooks = { beforeToolCall: (call) => (call.arguments['item'] === 'b' ? { veto: 'b is off limits' } : undefined) };
    const { agent, provider, tool } = setup([{ toolCalls: [work('a'), work('b')] }, { text: 'ok' }], hooks);
    const result = await agent.prompt('go');
    expect(tool.calls).toEqual(['call_1_1']);
    const results = resultsOf(result.messages);
    expect(results[0]).toEqual(['call_1_1', 'worked on a', false]);
    expect(results[1]?.[0]).toBe('call_1_2');
    expect(results[1]?.[1]).toContain('b is off limits');
    expect(results[1]?.[2]).toBe(true);
    expect(result.stopReason).toBe('stop');
    expect(resultsOf(provider.seen[1] ?? [])).toEqual(results);
  });

  it('afterToolCall can replace a result, and the model sees the replacement', async () => {
    const hooks: AgentHooks = {
      afterToolCall: (_call, result) =>
        textOf(result).includes('a') ? { ...result, content: [{ type: 'text', text: 'redacted' }], details: { redacted: true } } : undefined,
    };
    const { agent, provider, events } = setup([{ toolCalls: [work('a'), work('z')] }, { text: 'ok' }], hooks);
    const result = await agent.prompt('go');
    expect(resultsOf(result.messages)).toEqual([
      ['call_1_1', 'redacted', false],
      ['call_1_2', 'worked on z', false],
    ]);
    expect(result.messages.find((m) => m.role === 'toolResult' && m.toolCallId === 'call_1_1')).toMatchObject({ details: { redacted: true } });
    expect(resultsOf(provider.seen[1] ?? [])).toEqual(resultsOf(result.messages));
    expect(eventsOf(events, 'tool_end').map((e) => textOf(e.result))).toEqual(['redacted', 'worked on z']);
  });

  it('a throwing beforeTurn or afterTurn is reported as hook_failed and the run completes', async () => {
    const hooks: AgentHooks = {
      beforeTurn: ({ turn }) => {
        if (turn === 1) throw new Error('before boom');
      },
      afterTurn: ({ turn }) => {
        if (turn === 2) throw new Error('after boom');
      },
    };
    const { agent, events } = setup([{ toolCalls: [work('a')] }, { text: 'done' }], hooks);
    const result = await agent.prompt('go');
    expect(result.stopReason).toBe('stop');
    expect(result.text).toBe('done');
    const errors = eventsOf(events, 'error');
    expect(errors.map((e) => e.error.code)).toEqual(['hook_failed', 'hook_failed']);
    expect(errors[0]?.error.message).toContain('before boom');
    expect(errors[1]?.error.message).toContain('after boom');
  });

  it('a throwing beforeToolCall gives that call an error result without running it', async () => {
    const hooks: AgentHooks = {
      beforeToolCall: () => {
        throw new Error('policy service down');
      },
    };
    const { agent, tool } = setup([{ toolCalls: [work('a')] }, { text: 'ok' }], hooks);
    const result = await agent.prompt('go');
    expect(tool.calls).toEqual([]);
    const [only] = resultsOf(result.messages);
    expect(only?.[1]).toContain('policy service down');
    expect(only?.[2]).toBe(true);
    expect(result.stopReason).toBe('stop');
  });
});
