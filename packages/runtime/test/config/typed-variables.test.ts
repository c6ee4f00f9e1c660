/**
 * Proves `${NAME}` references work wherever a value stands and whatever the field wants:
 * inside YAML flow maps and lists (`limits: { maxTurns: ${MAX_TURNS:-5} }`, which YAML alone reads
 * as a nested mapping and rejects), as numbers and booleans converted from the substituted text,
 * and as one of a set of words; a value that is not what the field wants is reported at its
 * position with the text it came from. Regression: issue 13, §4 (`${VAR}` in a flow map).
 */
import { describe, expect, it } from 'vitest';
import { GraphFileError } from '../../src/config/graph-file-error.js';
import { parseGraph } from '../../src/config/load-graph.js';

const graph = (...agent: string[]): string =>
  [
    'version: 1',
    'models:',
    '  m: { model: scripted, script: [{ text: hi }] }',
    'agents:',
    '  a:',
    '    model: m',
    ...agent.map((line) => `    ${line}`),
    '',
  ].join('\n');

async function problems(text: string, env: Record<string, string>): Promise<string[]> {
  try {
    await parseGraph(text, { file: 'g.yaml', env });
  } catch (error) {
    if (error instanceof GraphFileError) return error.problems.map((p) => `${p.line}:${p.col}: ${p.message}`);
    throw error;
  }
  return [];
}

describe('typed ${NAME} references', () => {
  it('substitutes references inside flow maps and converts them to numbers', async () => {
    const text = graph('limits: { maxTurns: ${MAX_TURNS:-5}, maxCost: ${COST}, maxWallTimeMs: ${WALL:-60000} }');
    const loaded = await parseGraph(text, { file: 'g.yaml', env: { COST: '0.25', WALL: '' } });
    expect(loaded.agents['a']?.limits).toEqual({ maxTurns: 5, maxCost: 0.25, maxWallTimeMs: 60000 });
    const set = await parseGraph(text, { file: 'g.yaml', env: { COST: '1', MAX_TURNS: '12' } });
    expect(set.agents['a']?.limits?.maxTurns).toBe(12);
  });

  it('keeps fallbacks with flow syntax in them, in flow lists too', async () => {
    const text = graph('system: ${ROLE:-a: helper, [terse] # really}', 'tools: [${FIRST:-clock}, echo]');
    const loaded = await parseGraph(text, { file: 'g.yaml', env: {} });
    expect(loaded.agents['a']).toMatchObject({ systemPrompt: 'a: helper, [terse] # really', tools: ['clock', 'echo'] });
  });

  it('converts booleans and words from block values as well', async () => {
    const text = [
      'version: 1',
      'models: { m: { model: scripted, script: [{ text: hi }] } }',
      'agents: { a: { model: m } }',
      'pipelines:',
      '  p:',
      '    steps:',
      '      - { id: one, agent: a, continueOnError: ${LENIENT:-true} }',
      'entry: p',
      '',
    ].join('\n');
    const loaded = await parseGraph(text, { file: 'g.yaml', env: { LENIENT: 'FALSE' } });
    expect(loaded.pipelines?.['p']?.steps[0]).toMatchObject({ id: 'one', continueOnError: false });
  });

  it('reports a value that is not a number at its position, with what it came from', async () => {
    const text = graph('limits: { maxTurns: ${MAX_TURNS:-5}, maxCost: ${COST} }');
    expect(await problems(text, { MAX_TURNS: 'ten', COST: '-1' })).toEqual([
      '7:25: agents.a.limits.maxTurns must be a positive integer, got "ten" (from ${MAX_TURNS:-5})',
      '7:51: agents.a.limits.maxCost must be a positive number, got "-1" (from ${COST})',
    ]);
    expect(await problems(graph('limits:', '  maxTurns: ${MAX_TURNS}'), { MAX_TURNS: '2.5' })).toEqual([
      '8:17: agents.a.limits.maxTurns must be a positive integer, got "2.5" (from ${MAX_TURNS})',
    ]);
  });

  it('reports an unset variable inside a flow map once, at the reference', async () => {
    expect(await problems(graph('limits: { maxTurns: ${MAX_TURNS} }'), {})).toEqual(['7:25: environment variable "MAX_TURNS" is not set']);
  });

  it('still rejects a literal string where a number belongs', async () => {
    expect(await problems(graph('limits: { maxTurns: "5" }'), {})).toEqual([
      '7:25: agents.a.limits.maxTurns must be a positive integer or "unlimited", got string "5"',
    ]);
  });
});
