/**
 * Tools that change while an agent runs (an MCP server's list_changed): with a ToolSource, every
 * model call sees the current list and every tool batch runs against it; a tool added after the
 * start can be called on the next turn, a removed one answers "unknown tool", and a new tool
 * whose schema does not compile is left out with an error event instead of crashing the run.
 */
import { describe, expect, it } from 'vitest';
import { Agent, type Tool, type ToolResultMessage } from '../src/index.js';
import { createScriptedProvider } from '../src/testing.js';
import { ALLOW, echoTool, record } from './support.js';

describe('tool sources', () => {
  it('read the current tools for every model call and tool batch', async () => {
    const late: Tool = { ...echoTool(), name: 'late' };
    const broken: Tool = { ...echoTool(), name: 'broken', parameters: { type: 'nope' } };
    let tools: readonly Tool[] = [echoTool()];
    const provider = createScriptedProvider([
      { toolCalls: [{ name: 'echo', arguments: { text: 'one' } }] },
      {
        toolCalls: [
          { name: 'late', arguments: { text: 'two' } },
          { name: 'echo', arguments: { text: 'gone' } },
        ],
      },
      { text: 'done' },
    ]);
    const agent = new Agent({ provider, model: 'm', permissions: ALLOW, tools: { current: () => tools } });
    const events = record(agent);
    agent.events$.subscribe((e) => {
      // The server's list changes while the first tool runs.
      if (e.type === 'tool_end' && e.toolCallId === 'call_1_1') tools = [late, broken];
    });
    const result = await agent.prompt('go');
    expect(provider.requests.map((r) => r.tools.map((t) => t.name))).toEqual([['echo'], ['late'], ['late']]);
    const results = result.messages.filter((m): m is ToolResultMessage => m.role === 'toolResult');
    expect(results.map((r) => [r.toolName, r.isError])).toEqual([
      ['echo', false],
      ['late', false],
      ['echo', true],
    ]);
    expect(events.filter((e) => e.type === 'error').map((e) => e.type === 'error' && e.error.code)).toEqual(['invalid_tool']);
  });
});
