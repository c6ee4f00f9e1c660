/**
 * `sandbox:` of an agent: a mode, or the whole policy; what it reads is what the agent's tools
 * get, with the graph's `.env` hidden too; a bad value is reported at its position.
 */
import { describe, expect, it } from 'vitest';
import { agentOptionsFromConfig } from '../../src/agent-from-config.js';
import { formatGraphProblem, GraphFileError } from '../../src/config/graph-file-error.js';
import { loadGraphFile } from '../../src/config/load-graph.js';
import { createNodeToolRegistry } from '@troupe/tools/node';
import type { ToolOptions } from '@troupe/tools';

const MODELS = ['version: 1', 'entry: a', 'models:', '  demo:', '    model: scripted', '    script: [{ text: hi }]'];

function load(lines: string[]) {
  const text = `${lines.join('\n')}\n`;
  return loadGraphFile('/project/g.yaml', { env: {}, readTextFile: async () => text });
}

describe('sandbox in graph files', () => {
  it('reads a mode or a whole policy', async () => {
    const graph = await load([
      ...MODELS,
      'agents:',
      '  a: { model: demo, sandbox: required }',
      '  open: { model: demo, sandbox: off }',
      '  custom:',
      '    model: demo',
      '    sandbox: { mode: required, network: { allow: ["*"] }, allowWrite: [/var/cache/x], denyRead: [~/.config/secrets] }',
      '  plain: { model: demo }',
    ]);
    expect(graph.agents['a']?.sandbox).toEqual({ mode: 'required' });
    expect(graph.agents['open']?.sandbox).toEqual({ mode: 'off' });
    expect(graph.agents['custom']?.sandbox).toEqual({
      mode: 'required',
      network: { allow: ['*'] },
      allowWrite: ['/var/cache/x'],
      denyRead: ['~/.config/secrets'],
    });
    expect(graph.agents['plain']?.sandbox).toBeUndefined();
  });

  it('hands the policy to the agent’s tools, with the graph’s .env hidden', async () => {
    const graph = await load([...MODELS, 'agents:', '  a: { model: demo, tools: [bash], sandbox: required }', '  b: { model: demo, tools: [bash] }']);
    const seen: ToolOptions[] = [];
    const node = createNodeToolRegistry();
    const tools = { ...node, create: (name: string, options: ToolOptions = {}) => (seen.push(options), node.create(name, options)) };
    agentOptionsFromConfig(graph, 'a', { tools });
    agentOptionsFromConfig(graph, 'b', { tools });
    expect(seen.map((options) => options.sandbox)).toEqual([
      { mode: 'required', denyRead: ['/project/.env'] },
      { mode: 'auto', denyRead: ['/project/.env'] },
    ]);
  });

  it('reports a bad value at its position', async () => {
    const problems = await load([
      ...MODELS,
      'agents:',
      '  a: { model: demo, sandbox: strict }',
      '  b: { model: demo, sandbox: { mode: auto, network: { allow: yes } } }',
      '  c: { model: demo, sandbox: { network: { allow: [api.github.com, "*.npmjs.org", "registry.npmjs.org:443", "[::1]:8080", https://x.com/y] } } }',
    ]).then(
      () => [],
      (error: unknown) => (error instanceof GraphFileError ? error.problems.map(formatGraphProblem) : [String(error)]),
    );
    expect(problems).toEqual([
      '/project/g.yaml:8:30: agents.a.sandbox must be one of off, auto, required, got string "strict"',
      '/project/g.yaml:9:62: agents.b.sandbox.network.allow must be a list, got string "yes"',
      '/project/g.yaml:10:122: agents.c.sandbox.network.allow[4] must be a host ("api.github.com", "*.github.com", "api.github.com:443") or "*", got "https://x.com/y" (write the host alone, without a scheme or a path)',
    ]);
  });
});
