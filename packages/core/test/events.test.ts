/**
 * Events (behaviours 2 and 3): the order of a run's events with and without tools; the envelope
 * (`type`, `runId`, `agentPath`, strictly increasing `seq`, `ts`) on every event; JSON round trips
 * unchanged; tool results get `message_start`/`message_end` like every message; `message_update`
 * carries only the delta; with `keepRunEvents` a late subscriber gets the whole run; `agent.state`
 * follows the statechart and each state entry emits a `state` event.
 */
import { describe, expect, it } from 'vitest';
import { blockingTool, echoTool, record, scriptedAgent, typesOf } from './support.js';

function collapseUpdates(types: string[]): string[] {
  return types.filter((t, i) => !(t === 'message_update' && types[i - 1] === 'message_update'));
}

describe('events', () => {
  it('follow the documented order without tools', async () => {
    const agent = scriptedAgent([{ text: 'Hello there, friend.' }]);
    const events = record(agent);
    await agent.prompt('hi');
    expect(collapseUpdates(typesOf(events))).toEqual([
      'agent_start',
      'state:thinking',
      'turn_start',
      'message_start',
      'message_end', // the user's prompt
      'message_start',
      'message_update',
      'message_end',
      'usage', // the assistant's reply
      'turn_end',
      'state:done',
      'agent_end',
    ]);
  });

  it('put tool events inside the turn', async () => {
    const agent = scriptedAgent([{ toolCalls: [{ name: 'echo', arguments: { text: 'x' } }] }, { text: 'ok' }], {
      tools: [echoTool({ execute: (args, ctx) => (ctx.update({ step: 1 }), ctx.progress('half'), { content: String(args['text']) }) })],
    });
    const events = record(agent);
    await agent.prompt('hi');
    const types = collapseUpdates(typesOf(events));
    const firstTurn = types.slice(types.indexOf('turn_start'), types.indexOf('turn_end') + 1);
    expect(firstTurn).toEqual([
      'turn_start',
      'message_start',
      'message_end',
      'message_start',
      'message_update',
      'message_end',
      'usage',
      'state:tool_executing',
      'tool_start',
      'tool_update',
      'tool_update',
      'tool_end',
      'message_start',
      'message_end',
      'turn_end',
    ]);
    // The tool result is a message like any other: its message_start/message_end carry the role and the message.
    const resultEvents = events.filter((e) => (e.type === 'message_start' || e.type === 'message_end') && e.role === 'toolResult');
    expect(resultEvents.map((e) => e.type)).toEqual(['message_start', 'message_end']);
    expect(resultEvents[1]).toMatchObject({ message: { role: 'toolResult', toolCallId: 'call_1_1', content: [{ type: 'text', text: 'x' }] } });
    const updates = events.filter((e) => e.type === 'tool_update');
    expect(updates.map((e) => (e.type === 'tool_update' ? [e.partial, e.progress] : []))).toEqual([
      [{ step: 1 }, undefined],
      [undefined, 'half'],
    ]);
  });

  it('carry the envelope, increasing seq, and survive JSON', async () => {
    const agent = scriptedAgent([{ text: 'abc', toolCalls: [{ name: 'echo', arguments: { text: 'x' } }] }, { text: 'done' }], {
      tools: [echoTool()],
      name: 'writer',
    });
    const events = record(agent);
    const result = await agent.prompt('hi');
    for (const [i, event] of events.entries()) {
      expect(event.runId).toBe(result.runId);
      expect(event.agentPath).toBe('writer');
      expect(typeof event.ts).toBe('number');
      if (i > 0) expect(event.seq).toBeGreaterThan(events[i - 1]!.seq);
      expect(JSON.parse(JSON.stringify(event))).toEqual(event);
    }
  });

  it('stream deltas only', async () => {
    const text = 'The quick brown fox jumps over the lazy dog.';
    const agent = scriptedAgent([{ text }]);
    const events = record(agent);
    await agent.prompt('hi');
    const deltas = events.flatMap((e) => (e.type === 'message_update' && e.delta.type === 'text_delta' ? [e.delta.delta] : []));
    expect(deltas.length).toBeGreaterThan(5);
    expect(deltas.every((d) => d.length <= 4)).toBe(true);
    expect(deltas.join('')).toBe(text);
    for (const event of events)
      if (event.type === 'message_update') expect(Object.keys(event).sort()).toEqual(['agentPath', 'delta', 'runId', 'seq', 'ts', 'type']);
  });

  it('replay the whole run to a late subscriber when kept', async () => {
    const agent = scriptedAgent([{ text: 'one two three' }], { keepRunEvents: true });
    const early = record(agent);
    await agent.prompt('hi');
    const late = record(agent);
    expect(late).toEqual(early.filter((e) => e.runId === late[0]?.runId));
    expect(late[0]?.type).toBe('agent_start');
    expect(late.at(-1)?.type).toBe('agent_end');
    // Without keepRunEvents, events$ is hot: a late subscriber sees only what comes next.
    const hot = scriptedAgent([{ text: 'x' }]);
    await hot.prompt('hi');
    expect(record(hot)).toEqual([]);
  });

  it('expose the statechart state and announce each state entered', async () => {
    const block = blockingTool();
    const agent = scriptedAgent([{ toolCalls: [{ name: 'block' }] }, { text: 'done' }], { tools: [block.tool] });
    const states: string[] = [];
    agent.events$.subscribe((e) => {
      if (e.type === 'state') {
        expect(agent.state).toBe(e.state);
        states.push(e.state);
      }
    });
    expect(agent.state).toBe('idle');
    const result = agent.prompt('hi');
    expect(agent.state).toBe('thinking');
    await block.firstStarted;
    expect(agent.state).toBe('tool_executing');
    block.release(block.started[0]!.toolCallId);
    await result;
    expect(agent.state).toBe('done');
    expect(states).toEqual(['thinking', 'tool_executing', 'thinking', 'done']);
  });
});
