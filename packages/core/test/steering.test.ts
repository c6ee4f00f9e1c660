/**
 * Steering and follow-up (behaviour 7): a message steered while tools run cancels the calls not
 * yet finished (error result "tool call cancelled: user requested steering interrupt", the Swink
 * PRD's text) and enters the context before the next model call; queued follow-ups make the run
 * go on when it would stop. Both queues deliver one message per turn (`one-at-a-time`, the
 * default) or all at once (`all`).
 */
import { describe, expect, it } from 'vitest';
import { SKIPPED_BY_STEERING, textOf, type Message, type ToolResultMessage } from '../src/index.js';
import { createScriptedProvider } from '../src/testing.js';
import { Agent } from '../src/index.js';
import { ALLOW, blockingTool, nextEvent } from './support.js';

function userTexts(messages: readonly Message[]): string[] {
  return messages.filter((m) => m.role === 'user').map(textOf);
}

describe('steering', () => {
  it('cancels unfinished calls after the next one finishes and enters before the next model call', async () => {
    const fast = blockingTool('fast');
    const slow = blockingTool('slow');
    const provider = createScriptedProvider([{ toolCalls: [{ name: 'fast' }, { name: 'slow' }] }, { text: 'changed course' }]);
    const agent = new Agent({ provider, model: 'm', permissions: ALLOW, tools: [fast.tool, slow.tool] });
    const result = agent.prompt('start');
    await Promise.all([fast.firstStarted, slow.firstStarted]);
    agent.steer('stop, do something else');
    fast.release(fast.started[0]!.toolCallId);
    const outcome = await result;
    expect(slow.started[0]?.signal.aborted).toBe(true);
    const results = outcome.messages.filter((m): m is ToolResultMessage => m.role === 'toolResult');
    expect(results.map((r) => [r.toolName, r.isError, textOf(r)])).toEqual([
      ['fast', false, 'fast done'],
      ['slow', true, SKIPPED_BY_STEERING],
    ]);
    expect(SKIPPED_BY_STEERING).toBe('tool call cancelled: user requested steering interrupt');
    const secondRequest = provider.requests[1]!;
    expect(secondRequest.messages.map((m) => m.role)).toEqual(['user', 'assistant', 'toolResult', 'toolResult', 'user']);
    expect(textOf(secondRequest.messages.at(-1)!)).toBe('stop, do something else');
    expect(outcome.text).toBe('changed course');
  });

  it('stops a batch after its first call when steering was queued before it started', async () => {
    const provider = createScriptedProvider([{ toolCalls: [{ name: 'first' }, { name: 'second' }], delayMs: 0 }, { text: 'ok' }]);
    const first = blockingTool('first');
    const second = blockingTool('second');
    const agent = new Agent({ provider, model: 'm', permissions: ALLOW, tools: [first.tool, second.tool], toolExecution: { mode: 'sequential' } });
    const started = nextEvent(agent, 'turn_start');
    const result = agent.prompt('go');
    await started;
    agent.steer('new plan');
    await first.firstStarted;
    first.release(first.started[0]!.toolCallId);
    const outcome = await result;
    expect(second.started).toHaveLength(0);
    expect(outcome.messages.filter((m) => m.role === 'toolResult').map(textOf)).toEqual(['first done', SKIPPED_BY_STEERING]);
  });

  for (const [mode, expected] of [
    ['one-at-a-time', [['go'], ['go', 's1'], ['go', 's1', 's2']]],
    ['all', [['go'], ['go', 's1', 's2']]],
  ] as const) {
    it(`delivers steering ${mode}`, async () => {
      const provider = createScriptedProvider([{ text: 'a' }, { text: 'b' }, { text: 'c' }]);
      const agent = new Agent({ provider, model: 'm', steeringMode: mode });
      const started = nextEvent(agent, 'message_start', (e) => e.role === 'assistant');
      const result = agent.prompt('go');
      await started;
      agent.steer('s1');
      agent.steer('s2');
      await result;
      expect(provider.requests.map((r) => userTexts(r.messages))).toEqual(expected);
    });
  }
});

describe('follow-up', () => {
  for (const [mode, expected] of [
    ['one-at-a-time', [['go'], ['go', 'f1'], ['go', 'f1', 'f2']]],
    ['all', [['go'], ['go', 'f1', 'f2']]],
  ] as const) {
    it(`makes the run go on when it would stop (${mode})`, async () => {
      const provider = createScriptedProvider([{ text: 'a' }, { text: 'b' }, { text: 'c' }]);
      const agent = new Agent({ provider, model: 'm', followUpMode: mode });
      agent.followUp('f1');
      agent.followUp('f2');
      const result = await agent.prompt('go');
      expect(result.stopReason).toBe('stop');
      expect(provider.requests.map((r) => userTexts(r.messages))).toEqual(expected);
      expect(result.turns).toBe(expected.length);
    });
  }

  it('waits for the run to stop before delivering', async () => {
    const tool = blockingTool('work', { readOnly: true });
    const provider = createScriptedProvider([{ toolCalls: [{ name: 'work' }] }, { text: 'worked' }, { text: 'followed up' }]);
    const agent = new Agent({ provider, model: 'm', permissions: ALLOW, tools: [tool.tool] });
    const result = agent.prompt('go');
    await tool.firstStarted;
    agent.followUp('and then?');
    tool.release(tool.started[0]!.toolCallId);
    const outcome = await result;
    // The follow-up did not interrupt the tool turn: it came after the model's final answer.
    expect(provider.requests[1]?.messages.at(-1)?.role).toBe('toolResult');
    expect(textOf(provider.requests[2]!.messages.at(-1)!)).toBe('and then?');
    expect(outcome.text).toBe('followed up');
  });
});
