/**
 * Tool execution (behaviours 4 and 5): calls of one turn run concurrently by default (two tools
 * that each wait for the other to start both finish), results come back in the model's call
 * order, and `sequential` and `batched(n)` modes limit concurrency. Arguments are validated
 * against the tool's JSON Schema before `execute` (an invalid call gets an error result naming
 * the failing path and is not run); an unknown tool name gets an error listing the tools; a tool
 * that throws yields an error result rather than crashing the loop.
 */
import { describe, expect, it } from 'vitest';
import type { Tool, ToolResultMessage } from '../src/index.js';
import { echoTool, latch, scriptedAgent } from './support.js';

function resultsOf(messages: readonly { role: string }[]): ToolResultMessage[] {
  return messages.filter((m): m is ToolResultMessage => m.role === 'toolResult');
}

/** A tool whose call `id` waits until every id in `waitsFor` has started. */
function rendezvousTool(started: Map<string, () => void>, gates: Map<string, Promise<void>>): Tool {
  return {
    name: 'meet',
    description: 'Waits for its partner to start.',
    parameters: { type: 'object', properties: { id: { type: 'string' }, partner: { type: 'string' } }, required: ['id', 'partner'] },
    execute: async (args) => {
      started.get(String(args['id']))?.();
      await gates.get(String(args['partner']));
      return { content: `met ${String(args['partner'])}` };
    },
  };
}

describe('tool execution', () => {
  it('runs the calls of a turn concurrently and returns results in call order', async () => {
    const a = latch();
    const b = latch();
    const tool = rendezvousTool(
      new Map([
        ['a', () => a.resolve()],
        ['b', () => b.resolve()],
      ]),
      new Map([
        ['a', a.promise],
        ['b', b.promise],
      ]),
    );
    const agent = scriptedAgent(
      [
        {
          toolCalls: [
            { name: 'meet', arguments: { id: 'a', partner: 'b' } },
            { name: 'meet', arguments: { id: 'b', partner: 'a' } },
          ],
        },
        { text: 'done' },
      ],
      { tools: [tool] },
    );
    const result = await agent.prompt('go');
    expect(result.stopReason).toBe('stop');
    expect(resultsOf(result.messages).map((r) => r.content)).toEqual([[{ type: 'text', text: 'met b' }], [{ type: 'text', text: 'met a' }]]);
  });

  it('orders results by call even when later calls finish first', async () => {
    const slow = latch();
    const tool: Tool = {
      ...echoTool(),
      execute: async (args) => {
        if (args['text'] === 'slow') await slow.promise;
        else slow.resolve();
        return { content: String(args['text']) };
      },
    };
    const agent = scriptedAgent(
      [
        {
          toolCalls: [
            { name: 'echo', arguments: { text: 'slow' } },
            { name: 'echo', arguments: { text: 'fast' } },
          ],
        },
        { text: 'ok' },
      ],
      { tools: [tool] },
    );
    const ends: string[] = [];
    agent.events$.subscribe((e) => e.type === 'tool_end' && ends.push(e.toolCallId));
    const result = await agent.prompt('go');
    expect(ends).toEqual(['call_1_2', 'call_1_1']);
    expect(resultsOf(result.messages).map((r) => r.toolCallId)).toEqual(['call_1_1', 'call_1_2']);
  });

  for (const [mode, execution, expected] of [
    ['sequential', { mode: 'sequential' }, 1],
    ['batched(2)', { mode: 'batched', size: 2 }, 2],
    ['parallel', { mode: 'parallel' }, 5],
  ] as const) {
    it(`${mode} mode runs at most ${expected} at once`, async () => {
      let running = 0;
      let peak = 0;
      const tool: Tool = {
        ...echoTool(),
        execute: async (args) => {
          peak = Math.max(peak, ++running);
          await new Promise<void>((resolve) => setImmediate(resolve));
          running--;
          return { content: String(args['text']) };
        },
      };
      const calls = ['1', '2', '3', '4', '5'].map((text) => ({ name: 'echo', arguments: { text } }));
      const agent = scriptedAgent([{ toolCalls: calls }, { text: 'ok' }], { tools: [tool], toolExecution: execution });
      const result = await agent.prompt('go');
      expect(peak).toBe(expected);
      expect(resultsOf(result.messages).map((r) => r.content)).toEqual(calls.map((c) => [{ type: 'text', text: c.arguments.text }]));
    });
  }

  it('refuses invalid arguments without running the tool, naming the path', async () => {
    let runs = 0;
    const tool: Tool = {
      name: 'book',
      description: 'Books a flight.',
      parameters: {
        type: 'object',
        properties: { flight: { type: 'object', properties: { seats: { type: 'integer', minimum: 1 } }, required: ['seats'] }, to: { type: 'string' } },
        required: ['flight', 'to'],
      },
      execute: () => ((runs += 1), { content: 'booked' }),
    };
    const agent = scriptedAgent([{ toolCalls: [{ name: 'book', arguments: { flight: { seats: 0 } } }] }, { text: 'sorry' }], { tools: [tool] });
    const result = await agent.prompt('go');
    const [error] = resultsOf(result.messages);
    expect(runs).toBe(0);
    expect(error?.isError).toBe(true);
    expect(error?.content).toEqual([{ type: 'text', text: 'invalid arguments for book: to: is required; flight.seats: must be >= 1' }]);
  });

  it('refuses arguments that are not JSON', async () => {
    const agent = scriptedAgent([{ toolCalls: [{ name: 'echo', rawArguments: '{"text": "unterminated' }] }, { text: 'oops' }], { tools: [echoTool()] });
    const [error] = resultsOf((await agent.prompt('go')).messages);
    expect(error?.isError).toBe(true);
    expect(error?.content).toEqual([{ type: 'text', text: 'invalid arguments for echo: not a JSON object: {"text": "unterminated' }]);
  });

  it('answers an unknown tool with the list of available tools', async () => {
    const other: Tool = { ...echoTool(), name: 'clock' };
    const agent = scriptedAgent([{ toolCalls: [{ name: 'teleport', arguments: {} }] }, { text: 'oops' }], { tools: [echoTool(), other] });
    const [error] = resultsOf((await agent.prompt('go')).messages);
    expect(error).toMatchObject({
      isError: true,
      toolName: 'teleport',
      content: [{ type: 'text', text: 'unknown tool "teleport". Available tools: echo, clock' }],
    });
  });

  it('turns a throwing tool into an error result', async () => {
    const tool: Tool = { ...echoTool(), execute: () => Promise.reject(new Error('disk on fire')) };
    const agent = scriptedAgent([{ toolCalls: [{ name: 'echo', arguments: { text: 'x' } }] }, { text: 'handled' }], { tools: [tool] });
    const result = await agent.prompt('go');
    expect(result.stopReason).toBe('stop');
    expect(resultsOf(result.messages)[0]).toMatchObject({ isError: true, content: [{ type: 'text', text: 'Error executing echo: disk on fire' }] });
  });

  it('rejects a tool whose schema is invalid at construction', () => {
    const broken: Tool = { ...echoTool(), parameters: { type: 'object', properties: { a: { type: 'no-such-type' } } } };
    expect(() => scriptedAgent([], { tools: [broken] })).toThrow(expect.objectContaining({ code: 'invalid_tool' }));
  });
});
