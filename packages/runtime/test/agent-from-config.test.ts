/**
 * Proves an agent of a loaded graph becomes working `AgentOptions`: a fresh scripted provider per
 * agent (each replays its script from the first step), tools from the registry sharing the
 * injected clock, the system prompt, limits and permission rules; and that running it with the
 * real `Agent` plays the script end to end (clock tool call, then the final answer).
 */
import { fileURLToPath } from 'node:url';
import { textOf, type ToolResultMessage } from '@troupe/core';
import { SimulatedClock } from '@troupe/core/testing';
import { describe, expect, it } from 'vitest';
import { agentOptionsFromConfig, createAgentFromConfig } from '../src/agent-from-config.js';
import { loadGraphFile } from '../src/config/load-graph.js';
import { UnknownAgentError } from '../src/config/unknown-agent-error.js';

const fixture = fileURLToPath(new URL('./config/fixtures/assistant.yaml', import.meta.url));

describe('agentOptionsFromConfig', () => {
  it('builds the options of the named agent', async () => {
    const graph = await loadGraphFile(fixture, { env: {} });
    const clock = new SimulatedClock();
    const options = agentOptionsFromConfig(graph, 'assistant', { clock });
    expect(options.provider.name).toBe('scripted');
    expect(options.model).toBe('default');
    expect(options.name).toBe('assistant');
    expect(options.systemPrompt).toBe('You are a helpful assistant.');
    expect(Array.isArray(options.tools) && options.tools.map((tool) => tool.name)).toEqual(['clock', 'echo']);
    expect(options.limits).toEqual({ maxTurns: 10, maxTokens: 100000, maxWallTimeMs: 60000, maxCost: 1 });
    expect(options.permissions).toEqual({ mode: 'allow' });
    expect(options.clock).toBe(clock);
  });

  it('copies the config, so an agent cannot change the graph', async () => {
    const graph = await loadGraphFile(fixture, { env: {} });
    const options = agentOptionsFromConfig(graph, 'replayer');
    expect(options.permissions).toEqual({ mode: 'smart', tools: { echo: 'ask' } });
    expect(options.permissions).not.toBe(graph.agents['replayer']?.permissions);
    expect(options.systemPrompt).toBeUndefined();
    expect(options.tools).toEqual([]);
  });

  it('throws UnknownAgentError listing the agents', async () => {
    const graph = await loadGraphFile(fixture, { env: {} });
    expect(() => agentOptionsFromConfig(graph, 'nobody')).toThrow(UnknownAgentError);
    expect(() => agentOptionsFromConfig(graph, 'nobody')).toThrow('unknown agent "nobody": available agents: assistant, replayer');
    expect(() => agentOptionsFromConfig(graph, 'toString')).toThrow(UnknownAgentError);
  });
});

describe('createAgentFromConfig', () => {
  it('runs the entry agent through its script', async () => {
    const graph = await loadGraphFile(fixture, { env: {} });
    const clock = new SimulatedClock(Date.UTC(2026, 0, 2, 3, 4, 5));
    const agent = createAgentFromConfig(graph, graph.entry, { clock });
    try {
      const result = await agent.prompt('What time is it?');
      expect(result.stopReason).toBe('stop');
      expect(result.turns).toBe(2);
      expect(result.text).toBe('It is now later than you think.');
      const toolResult = result.messages.find((m): m is ToolResultMessage => m.role === 'toolResult');
      expect(toolResult?.toolName).toBe('clock');
      expect(toolResult === undefined ? undefined : textOf(toolResult)).toBe('2026-01-02T03:04:05.000Z');
    } finally {
      agent.dispose();
    }
  });

  it('gives every agent its own provider, starting at the first step', async () => {
    const graph = await loadGraphFile(fixture, { env: {} });
    for (let i = 0; i < 2; i++) {
      const agent = createAgentFromConfig(graph, 'assistant', { clock: new SimulatedClock() });
      try {
        expect((await agent.prompt('again')).text).toBe('It is now later than you think.');
      } finally {
        agent.dispose();
      }
    }
  });
});
