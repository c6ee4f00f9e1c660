/**
 * Proves the graph file's context settings: a model's `contextWindow` overrides the catalog's
 * (and a catalog model gets the catalog's), an agent's `compaction` (threshold, strategies, the
 * summary model, the tool-result budget) loads as written, and every mistake in it is reported at
 * its position with the loader's other problems: a threshold outside (0, 1], an unknown or
 * repeated strategy, an unknown model, an option for a step left out, an unknown key. The
 * published JSON Schema accepts and rejects the same shapes.
 */
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { SchemaValidator } from '@troupe/core';
import { parse } from 'yaml';
import { describe, expect, it } from 'vitest';
import { formatGraphProblem, GraphFileError } from '../../src/config/graph-file-error.js';
import { parseGraph } from '../../src/config/load-graph.js';

const schema = JSON.parse(readFileSync(fileURLToPath(new URL('../../schema/graph.schema.json', import.meta.url)), 'utf8')) as Record<string, unknown>;
const validate = new SchemaValidator().compile(schema);

const MODELS = [
  'models:',
  '  main: { model: scripted, contextWindow: 8000, script: [{ text: hi }] }',
  '  small: { model: scripted, script: [{ text: summary }] }',
  '  gpt: { model: "openai:gpt-4.1-mini", apiKey: k }',
];

const yamlOf = (agent: string): string => ['version: 1', ...MODELS, 'agents:', `  worker: ${agent}`, ''].join('\n');

async function problemsOf(text: string): Promise<string[]> {
  try {
    await parseGraph(text, { file: 'bad.yaml', env: {} });
  } catch (error) {
    if (error instanceof GraphFileError) return error.problems.map(formatGraphProblem);
    throw error;
  }
  throw new Error('the file loaded without problems');
}

describe('context settings in graph files', () => {
  it('loads a compaction section and context windows from the file or the catalog', async () => {
    const text = yamlOf('{ model: main, compaction: { threshold: 0.7, strategies: [summary, drop-oldest], model: small } }');
    const graph = await parseGraph(text, { file: 'g.yaml', env: {} });
    expect(graph.agents['worker']?.compaction).toEqual({ threshold: 0.7, strategies: ['summary', 'drop-oldest'], model: 'small' });
    expect(graph.models['main']?.contextWindow).toBe(8000);
    expect(graph.models['small']?.contextWindow).toBeUndefined();
    expect(graph.models['gpt']?.contextWindow).toBe(1_047_576);
    expect(validate(parse(text))).toEqual({ ok: true });
    const budget = await parseGraph(yamlOf('{ model: main, compaction: { toolResultBudget: 500 } }'), { file: 'g.yaml', env: {} });
    expect(budget.agents['worker']?.compaction).toEqual({ toolResultBudget: 500 });
  });

  it('reports every mistake at its position', async () => {
    const text = yamlOf(
      '{ model: main, compaction: { threshold: 1.5, strategies: [sumary, drop-oldest, drop-oldest], model: big, toolResultBudget: 10, keep: 3 } }',
    );
    expect(await problemsOf(text)).toEqual([
      'bad.yaml:7:51: agents.worker.compaction.threshold must be a number greater than 0 and at most 1, got number 1.5',
      'bad.yaml:7:69: agents.worker.compaction.strategies[0] must be one of tool-results, summary, drop-oldest, got string "sumary" (did you mean "summary"?)',
      'bad.yaml:7:90: duplicate strategy "drop-oldest" in agents.worker.compaction.strategies',
      'bad.yaml:7:111: agents.worker.compaction.model is for the "summary" strategy, which agents.worker.compaction.strategies leaves out (add "summary" to the strategies or remove model)',
      'bad.yaml:7:111: unknown model "big" in agents.worker.compaction.model (available models: main, small, gpt)',
      'bad.yaml:7:134: agents.worker.compaction.toolResultBudget is for the "tool-results" strategy, which agents.worker.compaction.strategies leaves out (add "tool-results" to the strategies or remove toolResultBudget)',
      'bad.yaml:7:138: unknown key "keep" in agents.worker.compaction (expected "threshold", "strategies", "model", "toolResultBudget")',
    ]);
    expect(validate(parse(text)).ok).toBe(false);
  });

  it('reports a context window that is not a positive integer', async () => {
    const text = [
      'version: 1',
      'models:',
      '  main: { model: scripted, contextWindow: 0.5, script: [{ text: hi }] }',
      'agents:',
      '  worker: { model: main }',
      '',
    ].join('\n');
    expect(await problemsOf(text)).toEqual(['bad.yaml:3:43: models.main.contextWindow must be a positive integer, got number 0.5']);
    expect(validate(parse(text)).ok).toBe(false);
  });
});
