/**
 * Proves an agent of a loaded graph becomes working `AgentOptions`: a fresh scripted provider per
 * agent (each replays its script from the first step), tools from the registry sharing the
 * injected clock, the system prompt, limits and permission rules, the model's context window
 * (regression: it was read from the catalog but never passed on, so agents built from a graph
 * compacted only after the vendor rejected a request) and the compaction settings; and that
 * running it with the real `Agent` plays the script end to end (clock tool call, then the final
 * answer), and compacts before its window with the summary model the graph names.
 */
import { fileURLToPath } from 'node:url';
import { SUMMARY_HEADER, textOf, type AgentEvent, type ToolResultMessage } from '@troupe/core';
import { SimulatedClock } from '@troupe/core/testing';
import { describe, expect, it } from 'vitest';
import { agentOptionsFromConfig, createAgentFromConfig } from '../src/agent-from-config.js';
import { loadGraphFile, parseGraph } from '../src/config/load-graph.js';
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

  it("passes the model's context window on, from the catalog or the file", async () => {
    const graph = await parseGraph(
      [
        'version: 1',
        'models:',
        '  gpt: { model: "openai:gpt-4.1-mini", apiKey: k }',
        '  small: { model: scripted, contextWindow: 8000, script: [{ text: hi }] }',
        '  plain: { model: scripted, script: [{ text: hi }] }',
        'agents:',
        '  a: { model: gpt }',
        '  b: { model: small, compaction: { threshold: 0.5, strategies: [tool-results, drop-oldest], toolResultBudget: 200 } }',
        '  c: { model: plain }',
        'entry: a',
        '',
      ].join('\n'),
      { file: 'g.yaml', env: {} },
    );
    expect(agentOptionsFromConfig(graph, 'a').contextWindow).toBe(1_047_576);
    const b = agentOptionsFromConfig(graph, 'b');
    expect(b.contextWindow).toBe(8000);
    expect(b.compaction).toEqual({
      threshold: 0.5,
      strategies: [expect.objectContaining({ name: 'tool-results' }), expect.objectContaining({ name: 'drop-oldest' })],
    });
    expect(agentOptionsFromConfig(graph, 'c')).not.toHaveProperty('contextWindow');
    expect(agentOptionsFromConfig(graph, 'c')).not.toHaveProperty('compaction');
  });

  it('throws UnknownAgentError listing the agents', async () => {
    const graph = await loadGraphFile(fixture, { env: {} });
    expect(() => agentOptionsFromConfig(graph, 'nobody')).toThrow(UnknownAgentError);
    expect(() => agentOptionsFromConfig(graph, 'nobody')).toThrow('unknown agent "nobody": available agents: assistant, replayer');
    expect(() => agentOptionsFromConfig(graph, 'toString')).toThrow(UnknownAgentError);
  });
});

describe('createAgentFromConfig', () => {
  it("compacts before the model's window, with the summary model the graph names", async () => {
    // Each step reports the usage a real model would: the request's size.
    const call = (n: number, input: number): string =>
      `      - { toolCalls: [{ name: echo, arguments: { text: "${String(n).repeat(2000)}" } }], usage: { input: ${input}, output: 500 } }`;
    const graph = await parseGraph(
      [
        'version: 1',
        'models:',
        '  main:',
        '    model: scripted',
        '    contextWindow: 3000',
        '    script:',
        call(1, 10),
        call(2, 1000),
        call(3, 2000),
        '      - { text: done }',
        '  small: { model: scripted, script: [{ text: "Goals: echo three times." }] }',
        'agents:',
        '  worker:',
        '    model: main',
        '    tools: [echo]',
        '    permissions: { mode: allow }',
        '    compaction: { strategies: [summary], model: small }',
        '',
      ].join('\n'),
      { file: 'g.yaml', env: {} },
    );
    const agent = createAgentFromConfig(graph, 'worker', { clock: new SimulatedClock() });
    const events: AgentEvent[] = [];
    agent.events$.subscribe((e) => events.push(e));
    try {
      const result = await agent.prompt('echo three times');
      expect(result.stopReason).toBe('stop');
      expect(events.filter((e) => e.type === 'compaction')).toMatchObject([{ reason: 'threshold', strategies: ['summary'] }]);
      expect(agent.contextMessages[1]).toMatchObject({ role: 'user', content: `${SUMMARY_HEADER}\n\nGoals: echo three times.` });
      expect(agent.messages).toHaveLength(8);
    } finally {
      agent.dispose();
    }
  });

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
