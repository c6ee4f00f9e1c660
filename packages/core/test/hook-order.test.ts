/**
 * When hooks fire relative to the events (issue 14 §5, the seeds' hook order REQ-185): each hook
 * fires before the event it can change — `onRunStart` before `agent_start`, `beforeTurn` before
 * `turn_start`, `beforeToolCall` before `tool_start` — and the observing ones after theirs
 * (`afterTurn` after `turn_end`, `onRunEnd` after `agent_end`, `onError` just before it).
 * `beforeTurn` can stop the run with a reason (stop reason `stopped`, no `turn_start`, no model
 * call, the refused turn not counted); `afterTurn` also runs for a failed or aborted turn; a
 * throwing run-level hook is reported and the run goes on.
 */
import { describe, expect, it } from 'vitest';
import { Agent, type AgentEvent, type AgentHooks } from '../src/index.js';
import { createScriptedProvider, type ScriptStep } from '../src/testing.js';
import { ALLOW, blockingTool, echoTool, record } from './support.js';
import { eventsOf } from './support-extra.js';

const SHOWN = new Set(['agent_start', 'turn_start', 'tool_start', 'tool_end', 'turn_end', 'agent_end']);

function traced(script: ScriptStep[], hooks: (log: string[]) => AgentHooks, tools = [echoTool()]) {
  const log: string[] = [];
  const provider = createScriptedProvider(script);
  const agent = new Agent({ provider, model: 'm', permissions: ALLOW, tools, hooks: hooks(log) });
  agent.events$.subscribe((e: AgentEvent) => {
    if (SHOWN.has(e.type)) log.push(`${e.type}${'turn' in e ? ` ${e.turn}` : ''}`);
  });
  return { agent, log, provider };
}

const echo = { name: 'echo', arguments: { text: 'x' } };

describe('hook order', () => {
  it('fires each hook before the event it can change, and the observers after theirs', async () => {
    const { agent, log } = traced([{ toolCalls: [echo] }, { text: 'done' }], (log) => ({
      onRunStart: ({ sessionId }) => void log.push(`onRunStart ${sessionId === agent.sessionId}`),
      beforeTurn: ({ turn }) => void log.push(`beforeTurn ${turn}`),
      beforeToolCall: (call) => void log.push(`beforeToolCall ${call.name}`),
      afterToolCall: (call) => void log.push(`afterToolCall ${call.name}`),
      afterTurn: ({ turn, failed }) => void log.push(`afterTurn ${turn}${failed ? ' failed' : ''}`),
      onError: () => void log.push('onError'),
      onRunEnd: (result) => void log.push(`onRunEnd ${result.stopReason}`),
    }));
    await agent.prompt('go');
    expect(log).toEqual([
      'onRunStart true',
      'agent_start',
      'beforeTurn 1',
      'turn_start 1',
      'beforeToolCall echo',
      'tool_start',
      'afterToolCall echo',
      'tool_end',
      'turn_end 1',
      'afterTurn 1',
      'beforeTurn 2',
      'turn_start 2',
      'turn_end 2',
      'afterTurn 2',
      'agent_end',
      'onRunEnd stop',
    ]);
  });

  it('beforeTurn stops the run with a reason: no turn_start, no model call, the turn not counted', async () => {
    let stopAt = 2;
    const { agent, log, provider } = traced([{ toolCalls: [echo] }, { text: 'done' }], (log) => ({
      beforeTurn: ({ turn, messages }) => (turn >= stopAt ? { stop: `budget spent after ${messages.length} messages` } : undefined),
      afterTurn: ({ turn }) => void log.push(`afterTurn ${turn}`),
      onRunEnd: (result) => void log.push(`onRunEnd ${result.stopReason}`),
    }));
    const events = record(agent);
    const result = await agent.prompt('go');
    expect(result.stopReason).toBe('stopped');
    expect(result.error).toEqual({ code: 'stopped', message: 'budget spent after 3 messages' });
    expect(result.turns).toBe(1);
    expect(provider.requests).toHaveLength(1);
    expect(agent.state).toBe('done');
    expect(log).toEqual(['agent_start', 'turn_start 1', 'tool_start', 'tool_end', 'turn_end 1', 'afterTurn 1', 'agent_end', 'onRunEnd stopped']);
    expect(eventsOf(events, 'state').map((e) => e.state)).toEqual(['thinking', 'tool_executing', 'thinking', 'done']);

    // The history is whole: the run can go on once the hook lets it.
    stopAt = Infinity;
    const next = await agent.continue();
    expect(next.stopReason).toBe('stop');
    expect(next.text).toBe('done');
  });

  it('afterTurn runs for a failed turn and an aborted one; onError comes before agent_end', async () => {
    const failing = traced([{ error: { kind: 'auth', message: 'bad key' } }], (log) => ({
      afterTurn: ({ turn, failed, message }) => void log.push(`afterTurn ${turn} ${failed} ${message?.stopReason}`),
      onError: (error) => void log.push(`onError ${error.code}`),
      onRunEnd: (result) => void log.push(`onRunEnd ${result.stopReason}`),
    }));
    const result = await failing.agent.prompt('go');
    expect(result.stopReason).toBe('error');
    expect(failing.log).toEqual([
      'agent_start',
      'turn_start 1',
      'turn_end 1',
      'afterTurn 1 true error',
      'onError provider_error',
      'agent_end',
      'onRunEnd error',
    ]);

    const blocker = blockingTool('block');
    const aborting = traced(
      [{ toolCalls: [{ name: 'block' }] }],
      (log) => ({ afterTurn: ({ turn, failed }) => void log.push(`afterTurn ${turn} ${failed}`) }),
      [blocker.tool],
    );
    const run = aborting.agent.prompt('go');
    await blocker.firstStarted;
    aborting.agent.abort();
    expect((await run).stopReason).toBe('aborted');
    expect(aborting.log).toContain('afterTurn 1 false');
    const beforeStream = traced([{ text: 'slow', delayMs: 10_000 }], (log) => ({
      afterTurn: ({ turn, failed, message }) => void log.push(`afterTurn ${turn} ${failed} ${message === undefined}`),
    }));
    const slow = beforeStream.agent.prompt('go');
    expect(beforeStream.log).toEqual(['agent_start', 'turn_start 1']);
    beforeStream.agent.abort();
    await slow;
    expect(beforeStream.log).toContain('afterTurn 1 true true');
  });

  it('a throwing run-level hook is reported as hook_failed and the run goes on', async () => {
    const { agent } = traced([{ text: 'fine' }], () => ({
      onRunStart: () => {
        throw new Error('start boom');
      },
      onRunEnd: () => {
        throw new Error('end boom');
      },
    }));
    const events = record(agent);
    const result = await agent.prompt('go');
    expect(result.text).toBe('fine');
    expect(eventsOf(events, 'error').map((e) => e.error.message)).toEqual(['onRunStart hook failed: start boom', 'onRunEnd hook failed: end boom']);
  });
});
