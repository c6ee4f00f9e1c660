/**
 * Tool control (behaviour 9): a tool result with `control: { type: 'suspend' }` parks the run in
 * `waiting_user` with a `question` event and `agent.pending`; `reply(answer)` makes the answer
 * that call's (non-error) result and the loop goes on, the next model request seeing it. Several
 * suspended calls of one turn are asked one after the other; `reply` when nothing is asked throws
 * `not_waiting`. A `control: { type: 'complete' }` ends the run with stopReason `complete` and the
 * value, without another model call.
 */
import { describe, expect, it } from 'vitest';
import { Agent, type AgentStateError, type ToolResultMessage } from '../src/index.js';
import { createScriptedProvider, type ScriptStep } from '../src/testing.js';
import { ALLOW, echoTool, nextEvent, record } from './support.js';
import { countingTool, eventsOf, resultsOf } from './support-extra.js';

function askTool() {
  return countingTool('ask', (args) => ({ content: 'asking the user', control: { type: 'suspend', question: String(args['question'] ?? 'Which one?') } }));
}

function setup(script: ScriptStep[], extra: Partial<ConstructorParameters<typeof Agent>[0]> = {}) {
  const provider = createScriptedProvider(script, { chunkSize: 4 });
  const ask = askTool();
  const agent = new Agent({ provider, model: 'test', permissions: ALLOW, tools: [ask.tool, echoTool()], ...extra });
  return { provider, agent, ask };
}

function thrownBy(fn: () => void): AgentStateError {
  try {
    fn();
  } catch (error) {
    return error as AgentStateError;
  }
  throw new Error('expected a throw');
}

describe('suspension', () => {
  it('asks the question, waits, and resumes with the answer as the call result', async () => {
    const { provider, agent, ask } = setup([{ toolCalls: [{ name: 'ask', arguments: { question: 'Which colour?' } }] }, { text: 'blue it is' }]);
    const events = record(agent);
    const asked = nextEvent(agent, 'question');
    const done = agent.prompt('paint it');
    const question = await asked;
    expect(question).toMatchObject({ toolCallId: 'call_1_1', toolName: 'ask', question: 'Which colour?' });
    expect(agent.state).toBe('waiting_user');
    expect(agent.isRunning).toBe(true);
    expect(agent.pending).toMatchObject({ kind: 'question', callId: 'call_1_1', toolName: 'ask', question: 'Which colour?' });
    // Nothing moves while the agent waits.
    expect(provider.requests).toHaveLength(1);
    expect(agent.messages.at(-1)?.role).toBe('assistant');

    agent.reply('blue');
    const result = await done;
    expect(result.stopReason).toBe('stop');
    expect(result.text).toBe('blue it is');
    expect(ask.calls).toEqual(['call_1_1']);
    expect(resultsOf(result.messages)).toEqual([['call_1_1', 'blue', false]]);
    expect(agent.pending).toBeUndefined();
    // The second model call saw the answer as the last message of its request.
    expect(provider.requests).toHaveLength(2);
    const seen = provider.requests[1]?.messages.at(-1) as ToolResultMessage | undefined;
    expect(seen).toMatchObject({ role: 'toolResult', toolCallId: 'call_1_1', isError: false, content: [{ type: 'text', text: 'blue' }] });
    expect(eventsOf(events, 'question')).toHaveLength(1);
    // The call's tool_end comes when the user answers, carrying the result the model gets.
    const ends = events.filter((e) => e.type === 'tool_end');
    expect(ends).toHaveLength(1);
    expect(ends[0]).toMatchObject({ toolCallId: 'call_1_1', result: { content: [{ type: 'text', text: 'blue' }] } });
    expect(events.indexOf(ends[0]!)).toBeGreaterThan(events.findIndex((e) => e.type === 'question'));
  });

  it('asks two suspending calls of one turn one after the other', async () => {
    const { provider, agent } = setup([
      {
        toolCalls: [
          { name: 'ask', arguments: { question: 'First?' } },
          { name: 'echo', arguments: { text: 'plain' } },
          { name: 'ask', arguments: { question: 'Second?' } },
        ],
      },
      { text: 'thanks' },
    ]);
    const events = record(agent);
    const first = nextEvent(agent, 'question');
    const done = agent.prompt('go');
    expect((await first).question).toBe('First?');
    expect(agent.pending).toMatchObject({ callId: 'call_1_1', question: 'First?' });

    const second = nextEvent(agent, 'question', (e) => e.toolCallId === 'call_1_3');
    agent.reply('one');
    expect((await second).question).toBe('Second?');
    expect(agent.state).toBe('waiting_user');
    expect(agent.pending).toMatchObject({ callId: 'call_1_3', question: 'Second?' });
    expect(provider.requests).toHaveLength(1);

    agent.reply('two');
    const result = await done;
    expect(result.stopReason).toBe('stop');
    // Results follow the model's call order, each answer on its own call.
    expect(resultsOf(result.messages)).toEqual([
      ['call_1_1', 'one', false],
      ['call_1_2', 'plain', false],
      ['call_1_3', 'two', false],
    ]);
    expect(eventsOf(events, 'question').map((e) => e.toolCallId)).toEqual(['call_1_1', 'call_1_3']);
    expect(resultsOf(provider.requests[1]?.messages ?? [])).toHaveLength(3);
  });

  it('keeps a pending question across snapshot and restore', async () => {
    const script: ScriptStep[] = [{ toolCalls: [{ name: 'ask', arguments: { question: 'Proceed?' } }] }, { text: 'proceeding' }];
    const { provider, agent } = setup(script);
    const asked = nextEvent(agent, 'question');
    void agent.prompt('go');
    await asked;
    const snapshot: unknown = JSON.parse(JSON.stringify(agent.snapshot()));
    agent.dispose();
    const resumed = createScriptedProvider(script, { startAt: provider.position });
    const restored = Agent.restore(snapshot, { provider: resumed, model: 'test', tools: [askTool().tool] });
    expect(restored.state).toBe('waiting_user');
    expect(restored.pending).toMatchObject({ kind: 'question', callId: 'call_1_1', question: 'Proceed?' });
    restored.reply('yes');
    const result = await restored.result;
    expect(result.stopReason).toBe('stop');
    expect(resultsOf(restored.messages)).toEqual([['call_1_1', 'yes', false]]);
    expect(resumed.requests).toHaveLength(1);
  });

  it('throws not_waiting when reply is called and no question is pending', async () => {
    const { agent } = setup([{ text: 'hi' }], { permissions: { mode: 'ask' } });
    expect(thrownBy(() => agent.reply('early')).code).toBe('not_waiting');
    await agent.prompt('hello');
    expect(thrownBy(() => agent.reply('late')).code).toBe('not_waiting');
  });

  it('throws not_waiting while the agent waits for a permission decision, not an answer', async () => {
    const { agent } = setup([{ toolCalls: [{ name: 'echo', arguments: { text: 'x' } }] }, { text: 'ok' }], {
      permissions: { mode: 'ask', tools: { echo: 'ask' } },
    });
    const asked = nextEvent(agent, 'permission_request');
    const done = agent.prompt('go');
    await asked;
    expect(agent.state).toBe('waiting_user');
    expect(thrownBy(() => agent.reply('yes')).code).toBe('not_waiting');
    agent.approve('call_1_1', 'allow_once');
    expect((await done).stopReason).toBe('stop');
  });

  it('ends the run with the value of a complete control and calls the model no more', async () => {
    const finish = countingTool('finish', () => ({ content: 'finished', control: { type: 'complete', value: { answer: 42 } } }));
    const provider = createScriptedProvider([{ toolCalls: [{ name: 'finish' }] }, { text: 'never sent' }]);
    const agent = new Agent({ provider, model: 'test', permissions: ALLOW, tools: [finish.tool] });
    const events = record(agent);
    const result = await agent.prompt('go');
    expect(result.stopReason).toBe('complete');
    expect(result.value).toEqual({ answer: 42 });
    expect(result.turns).toBe(1);
    expect(provider.requests).toHaveLength(1);
    expect(provider.position).toBe(1);
    expect(agent.state).toBe('done');
    expect(resultsOf(result.messages)).toEqual([['call_1_1', 'finished', false]]);
    expect(eventsOf(events, 'agent_end')).toHaveLength(1);
  });
});
