/**
 * Task mode (issue 14 §4, the task runner seed): with `completion: 'task'` a reply without tool
 * calls is shown like any other (its events, the history) and the loop goes on with a short
 * reminder to call task_complete; only a completing tool, a limit, an abort, a refusal or an
 * error end the run. `stepDelayMs` waits on the injected clock before each model call after the
 * first (tests advance a simulated clock), and an abort during the wait ends the run at once.
 */
import { describe, expect, it } from 'vitest';
import { Agent, TASK_REMINDER, textOf, type Tool } from '../src/index.js';
import { createScriptedProvider, flushPromises, SimulatedClock, type ScriptStep } from '../src/testing.js';
import { echoTool, record, typesOf } from './support.js';
import { eventsOf } from './support-extra.js';

const taskComplete: Tool = {
  name: 'task_complete',
  description: 'Ends the task.',
  parameters: { type: 'object', properties: { summary: { type: 'string' } }, required: ['summary'] },
  readOnly: true,
  execute: (args) => ({ content: String(args['summary']), control: { type: 'complete', value: { summary: args['summary'] } } }),
};

function taskAgent(script: ScriptStep[], extra: Partial<ConstructorParameters<typeof Agent>[0]> = {}) {
  const provider = createScriptedProvider(script, { chunkSize: 8 });
  const agent = new Agent({ provider, model: 'm', tools: [echoTool(), taskComplete], completion: 'task', ...extra });
  return { provider, agent, events: record(agent) };
}

describe('task mode', () => {
  it('goes on after a text reply with a reminder, and ends only at task_complete', async () => {
    const { provider, agent, events } = taskAgent([
      { text: 'I will look into it.' },
      { toolCalls: [{ name: 'echo', arguments: { text: 'step' } }] },
      { text: 'Halfway there.' },
      { toolCalls: [{ name: 'task_complete', arguments: { summary: 'did it' } }] },
      { text: 'never asked' },
    ]);
    const result = await agent.prompt('do the task');
    expect(result.stopReason).toBe('complete');
    expect(result.value).toEqual({ summary: 'did it' });
    expect(result.turns).toBe(4);
    expect(provider.requests).toHaveLength(4);
    expect(result.messages.map((m) => [m.role, textOf(m)])).toEqual([
      ['user', 'do the task'],
      ['assistant', 'I will look into it.'],
      ['user', TASK_REMINDER],
      ['assistant', ''],
      ['toolResult', 'step'],
      ['assistant', 'Halfway there.'],
      ['user', TASK_REMINDER],
      ['assistant', ''],
      ['toolResult', 'did it'],
    ]);
    // The text replies were shown like any other: streamed and ended, each in its own turn.
    const shown = eventsOf(events, 'message_end')
      .filter((e) => e.role === 'assistant')
      .map((e) => (e.message === undefined ? '' : textOf(e.message)));
    expect(shown).toContain('I will look into it.');
    expect(shown).toContain('Halfway there.');
    expect(eventsOf(events, 'turn_end').map((e) => e.turn)).toEqual([1, 2, 3, 4]);
    expect(TASK_REMINDER).toMatch(/task_complete/);
  });

  it('ends at the turn cap with its notice when the model never completes', async () => {
    const { agent } = taskAgent(
      Array.from({ length: 5 }, (_, i) => ({ text: `still thinking ${i}` })),
      { limits: { maxTurns: 3 } },
    );
    const result = await agent.prompt('go');
    expect(result.stopReason).toBe('limit');
    expect(result.turns).toBe(3);
    expect(result.text).toBe('Maximum conversation iterations reached (3 model calls).');
  });

  it('ends on an error, a refusal and an abort', async () => {
    expect((await taskAgent([{ error: { kind: 'auth' } }]).agent.prompt('go')).stopReason).toBe('error');
    expect((await taskAgent([{ text: 'no', stopReason: 'refusal' }]).agent.prompt('go')).stopReason).toBe('refusal');
    const clock = new SimulatedClock();
    const { agent } = taskAgent([{ text: 'working' }, { text: 'never' }], { clock, stepDelayMs: 1000 });
    const run = agent.prompt('go');
    await flushPromises();
    expect(agent.state).toBe('thinking');
    agent.abort();
    expect((await run).stopReason).toBe('aborted');
  });
});

describe('stepDelayMs', () => {
  it('waits on the clock before each model call after the first', async () => {
    const clock = new SimulatedClock();
    const { provider, agent, events } = taskAgent(
      [
        { text: 'one' },
        { toolCalls: [{ name: 'echo', arguments: { text: 'two' } }] },
        { toolCalls: [{ name: 'task_complete', arguments: { summary: 'three' } }] },
      ],
      { clock, stepDelayMs: 2000 },
    );
    const run = agent.prompt('go');
    await flushPromises();
    expect(provider.requests).toHaveLength(1);
    await clock.advance(1999);
    expect(provider.requests).toHaveLength(1);
    await clock.advance(1);
    expect(provider.requests).toHaveLength(2);
    await clock.advance(2000);
    expect((await run).stopReason).toBe('complete');
    expect(provider.requests).toHaveLength(3);
    // The pause is part of the turn: the turn starts, then the model is called after the delay.
    expect(typesOf(events).filter((t) => t === 'turn_start')).toHaveLength(3);
  });

  it('applies to a plain agent too, and not before the first call', async () => {
    const clock = new SimulatedClock();
    const provider = createScriptedProvider([{ toolCalls: [{ name: 'echo', arguments: { text: 'x' } }] }, { text: 'done' }]);
    const agent = new Agent({ provider, model: 'm', tools: [echoTool()], clock, stepDelayMs: 500 });
    const run = agent.prompt('go');
    await flushPromises();
    expect(provider.requests).toHaveLength(1);
    await clock.advance(500);
    expect((await run).text).toBe('done');
  });
});
