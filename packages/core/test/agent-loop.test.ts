/**
 * The autonomous loop (behaviour 1): the agent keeps calling the model while it stops with
 * `toolUse`, sends tool results back as `toolResult` messages, ends on `stop`/`length`, and
 * limits on turns, tokens, wall time and cost end the run with a typed reason instead of a throw.
 */
import { describe, expect, it } from 'vitest';
import { SimulatedClock } from '../src/testing.js';
import { blockingTool, echoTool, scriptedAgent } from './support.js';

describe('agent loop', () => {
  it('goes on while the model asks for tools and ends on stop', async () => {
    const agent = scriptedAgent(
      [
        { text: 'first', toolCalls: [{ name: 'echo', arguments: { text: 'one' } }] },
        { toolCalls: [{ name: 'echo', arguments: { text: 'two' } }] },
        { text: 'all done' },
      ],
      { tools: [echoTool()] },
    );
    const result = await agent.prompt('go');
    expect(result.stopReason).toBe('stop');
    expect(result.turns).toBe(3);
    expect(result.text).toBe('all done');
    expect(result.messages.map((m) => m.role)).toEqual(['user', 'assistant', 'toolResult', 'assistant', 'toolResult', 'assistant']);
    const results = result.messages.filter((m) => m.role === 'toolResult');
    expect(results.map((m) => (m.role === 'toolResult' ? [m.toolCallId, m.content, m.isError] : []))).toEqual([
      ['call_1_1', [{ type: 'text', text: 'one' }], false],
      ['call_2_1', [{ type: 'text', text: 'two' }], false],
    ]);
    expect(agent.state).toBe('done');
  });

  it('ends on a length stop without tool calls', async () => {
    const agent = scriptedAgent([{ text: 'cut off', stopReason: 'length' }]);
    const result = await agent.prompt('go');
    expect(result.stopReason).toBe('length');
    expect(result.turns).toBe(1);
  });

  it('stops cleanly at maxTurns', async () => {
    const loop = Array.from({ length: 10 }, () => ({ toolCalls: [{ name: 'echo', arguments: { text: 'x' } }] }));
    const agent = scriptedAgent(loop, { tools: [echoTool()], limits: { maxTurns: 3 } });
    const result = await agent.prompt('go');
    expect(result.stopReason).toBe('limit');
    expect(result.limit).toEqual({ kind: 'maxTurns', limit: 3, actual: 3 });
    expect(result.turns).toBe(3);
    // The history stays valid: every call has its result; the notice that ends it is not sent to the model.
    expect(result.messages.at(-2)?.role).toBe('toolResult');
    expect(result.messages.at(-1)).toMatchObject({ role: 'assistant', stopReason: 'aborted' });
    expect(result.text).toBe('Maximum conversation iterations reached (3 model calls).');
  });

  it('stops cleanly at maxTokens and maxCost', async () => {
    const loop = Array.from({ length: 10 }, () => ({ toolCalls: [{ name: 'echo', arguments: { text: 'x' } }], usage: { input: 100, output: 50 }, cost: 0.01 }));
    const byTokens = await scriptedAgent(loop, { tools: [echoTool()], limits: { maxTokens: 400 } }).prompt('go');
    expect(byTokens.stopReason).toBe('limit');
    expect(byTokens.limit).toEqual({ kind: 'maxTokens', limit: 400, actual: 450 });
    const byCost = await scriptedAgent(loop, { tools: [echoTool()], limits: { maxCost: 0.025 } }).prompt('go');
    expect(byCost.stopReason).toBe('limit');
    expect(byCost.limit?.kind).toBe('maxCost');
    expect(byCost.turns).toBe(3);
  });

  it('stops a run that outlives maxWallTimeMs, even mid-tool', async () => {
    const clock = new SimulatedClock();
    const block = blockingTool();
    const agent = scriptedAgent([{ toolCalls: [{ name: 'block' }] }, { text: 'never' }], { tools: [block.tool], clock, limits: { maxWallTimeMs: 5000 } });
    const result = agent.prompt('go');
    await block.firstStarted;
    await clock.advance(5000);
    const outcome = await result;
    expect(outcome.stopReason).toBe('limit');
    expect(outcome.limit?.kind).toBe('maxWallTimeMs');
    expect(block.started[0]?.signal.aborted).toBe(true);
    const last = outcome.messages.at(-2);
    expect(last?.role === 'toolResult' && last.isError).toBe(true);
    expect(outcome.text).toBe('Maximum run time reached (5 s).');
  });
});
