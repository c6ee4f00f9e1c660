/**
 * Load probe (issue #20): 100 agents, each making 10 concurrent tool calls in one turn, all at
 * once. The calls settle in a shuffled order, yet every agent's history holds every result, once,
 * in the order the model made the calls, and each agent's final answer saw its own last result.
 */
import { Agent, type Tool, textOf } from '@troupe/core';
import { createScriptedProvider } from '@troupe/core/testing';
import { describe, expect, it } from 'vitest';

const AGENTS = 100;
const CALLS = 10;

/** Yields to the event loop `times` times, so calls settle in an order unrelated to their start. */
async function yieldTimes(times: number): Promise<void> {
  for (let i = 0; i < times; i++) await new Promise<void>((resolve) => setImmediate(resolve));
}

/** A tool that answers `agent:call` after a pseudo-random number of event-loop turns. */
function shuffledTool(executed: Map<string, number>): Tool {
  return {
    name: 'work',
    description: 'Returns its label late.',
    parameters: { type: 'object', properties: { agent: { type: 'number' }, call: { type: 'number' } }, required: ['agent', 'call'] },
    readOnly: true,
    execute: async (args) => {
      const label = `${String(args['agent'])}:${String(args['call'])}`;
      executed.set(label, (executed.get(label) ?? 0) + 1);
      // Later calls of an agent tend to finish first: results must still come back in call order.
      await yieldTimes(((Number(args['agent']) * 7 + (CALLS - Number(args['call'])) * 3) % 11) + 1);
      return { content: `result ${label}` };
    },
  };
}

describe('load: 100 agents × 10 concurrent tool calls', () => {
  it('keeps every result, once, in call order', async () => {
    const executed = new Map<string, number>();
    const tool = shuffledTool(executed);
    const agents = Array.from({ length: AGENTS }, (_, a) => {
      const toolCalls = Array.from({ length: CALLS }, (_, c) => ({ name: 'work', id: `call-${a}-${c}`, arguments: { agent: a, call: c } }));
      const provider = createScriptedProvider([{ toolCalls }, { text: 'last: {{lastToolResult}}' }], { recordRequests: false });
      return new Agent({ provider, model: 'test', tools: [tool], permissions: { mode: 'allow' } });
    });

    const results = await Promise.all(agents.map((agent, a) => agent.prompt(`agent ${a}`)));

    expect(executed.size).toBe(AGENTS * CALLS);
    expect([...executed.values()].every((n) => n === 1)).toBe(true);
    results.forEach((result, a) => {
      expect(result.stopReason).toBe('stop');
      const toolResults = result.messages.filter((m) => m.role === 'toolResult');
      expect(toolResults.map((m) => m.toolCallId)).toEqual(Array.from({ length: CALLS }, (_, c) => `call-${a}-${c}`));
      expect(toolResults.map((m) => textOf(m))).toEqual(Array.from({ length: CALLS }, (_, c) => `result ${a}:${c}`));
      expect(toolResults.every((m) => !m.isError)).toBe(true);
      expect(result.text).toBe(`last: result ${a}:${CALLS - 1}`);
    });
  });
});
