/**
 * What an agent's runs do by default and how a graph file changes it (issue 14 §1, §4): without
 * `limits` and `permissions` an agent built from a file stops after 50 model calls and asks before
 * a tool that is not read-only; `maxTurns: unlimited` (or YAML's `.inf`) lifts the cap;
 * `completion: task` makes only task_complete end a run (and gives the agent that tool) and
 * `stepDelayMs` pauses between model calls on the injected clock. The published JSON Schema
 * accepts the same values, and a bad `maxTurns` is reported with its position.
 */
import { readFileSync } from 'node:fs';
import { SchemaValidator } from '@troupe/core';
import { flushPromises, SimulatedClock } from '@troupe/core/testing';
import { describe, expect, it } from 'vitest';
import { agentOptionsFromConfig, createAgentFromConfig } from '../../src/agent-from-config.js';
import { formatGraphProblem, GraphFileError } from '../../src/config/graph-file-error.js';
import { parseGraph } from '../../src/config/load-graph.js';

function file(agent: string, script = '[{ text: hi }]'): string {
  return ['version: 1', 'models:', `  m: { model: scripted, script: ${script} }`, 'agents:', `  a: ${agent}`, ''].join('\n');
}

const load = (agent: string, script?: string) => parseGraph(file(agent, script), { file: 'g.yaml', env: {} });

describe('an agent from a graph file', () => {
  it('stops after 50 model calls and asks before a tool that is not read-only, by default', async () => {
    const loop = `[${Array.from({ length: 60 }, () => '{ toolCalls: [{ name: echo, arguments: { text: x } }] }').join(', ')}]`;
    const capped = createAgentFromConfig(await load('{ model: m, tools: [echo] }', loop), 'a');
    const result = await capped.prompt('go');
    expect(result.stopReason).toBe('limit');
    expect(result.turns).toBe(50);
    expect(result.text).toBe('Maximum conversation iterations reached (50 model calls).');

    const asking = createAgentFromConfig(
      await load('{ model: m, tools: [clock, write_file] }', '[{ toolCalls: [{ name: clock }, { name: write_file, arguments: { path: a, content: b } }] }]'),
      'a',
    );
    const asked = new Promise((resolve) => asking.events$.subscribe((e) => e.type === 'permission_request' && resolve(e.toolName)));
    void asking.prompt('go');
    expect(await asked).toBe('write_file');
    asking.abort();
  });

  it('lifts the cap with maxTurns: unlimited or .inf', async () => {
    for (const value of ['unlimited', '.inf']) {
      const graph = await load(`{ model: m, limits: { maxTurns: ${value} } }`);
      expect(graph.agents['a']?.limits).toEqual({ maxTurns: Infinity });
      expect(agentOptionsFromConfig(graph, 'a').limits).toEqual({ maxTurns: Infinity });
    }
  });

  it('reports a maxTurns that is neither a positive integer nor unlimited', async () => {
    const error = await load('{ model: m, limits: { maxTurns: lots } }').catch((e: unknown) => e);
    expect(error).toBeInstanceOf(GraphFileError);
    expect((error as GraphFileError).problems.map(formatGraphProblem)).toEqual([
      'g.yaml:5:38: agents.a.limits.maxTurns must be a positive integer or "unlimited", got string "lots" (without maxTurns a run stops after 50 model calls)',
    ]);
  });

  it('runs in task mode with completion: task, with task_complete added to its tools', async () => {
    const script = '[{ text: "Working on it." }, { toolCalls: [{ name: task_complete, arguments: { summary: done } }] }]';
    const graph = await load('{ model: m, tools: [echo], completion: task, stepDelayMs: 1000 }', script);
    expect(graph.agents['a']).toMatchObject({ completion: 'task', stepDelayMs: 1000, tools: ['echo', 'task_complete'] });
    const clock = new SimulatedClock();
    const agent = createAgentFromConfig(graph, 'a', { clock });
    const run = agent.prompt('go');
    await flushPromises();
    expect(agent.messages.map((m) => m.role)).toEqual(['user', 'assistant', 'user']);
    await clock.advance(1000);
    const result = await run;
    expect(result.stopReason).toBe('complete');
    expect(result.value).toEqual({ summary: 'done' });
    expect((await load('{ model: m, tools: [task_complete], completion: task }')).agents['a']?.tools).toEqual(['task_complete']);
    expect(await load('{ model: m }')).not.toHaveProperty('agents.a.completion');
  });

  it('is described by the published JSON Schema', () => {
    const schema = JSON.parse(readFileSync(new URL('../../schema/graph.schema.json', import.meta.url), 'utf8')) as Record<string, unknown>;
    const validate = new SchemaValidator().compile(schema);
    const withAgent = (agent: Record<string, unknown>): unknown => ({
      version: 1,
      models: { m: { model: 'scripted' } },
      agents: { a: { model: 'm', ...agent } },
    });
    expect(validate(withAgent({ limits: { maxTurns: 'unlimited' }, completion: 'task', stepDelayMs: 0 }))).toEqual({ ok: true });
    expect(validate(withAgent({ limits: { maxTurns: 'lots' } })).ok).toBe(false);
    expect(validate(withAgent({ completion: 'whenever' })).ok).toBe(false);
    expect(validate(withAgent({ stepDelayMs: -1 })).ok).toBe(false);
  });
});
