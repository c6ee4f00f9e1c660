/**
 * The published JSON Schema of graph files (`@troupe/runtime/graph.schema.json`, for editors):
 * every example graph of the repository validates against it and loads; files with a typo'd
 * key, a wrong type or an unknown step shape do not validate; a `${NAME}` where a number belongs
 * does; an agent and a model entry have exactly the keys the loader reads (regression: keys added
 * to the loader were missing from the schema), and the run settings of issue 14 §5 validate.
 * The committed file is the one the loader's readers describe (regression: issue 15, the
 * hand-kept schema had drifted from the readers), with its id, title and descriptions.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { SchemaValidator } from '@troupe/core';
import { parse } from 'yaml';
import { describe, expect, it } from 'vitest';
import { AGENT_FIELDS } from '../../src/config/agent-schema.js';
import { GRAPH_SCHEMA_ID, graphJsonSchemaText } from '../../src/config/graph-json-schema.js';
import { MODEL_FIELDS } from '../../src/config/model-schema.js';
import { loadGraphFile } from '../../src/index.js';

const root = fileURLToPath(new URL('../../../../', import.meta.url));
const schemaText = readFileSync(join(root, 'packages/runtime/schema/graph.schema.json'), 'utf8');
const schema = JSON.parse(schemaText) as Record<string, unknown>;
const validate = new SchemaValidator().compile(schema);
const examples = readdirSync(join(root, 'apps/examples')).filter((name) => name.endsWith('.yaml'));

describe('graph JSON Schema', () => {
  it('is the one the readers describe (when stale: npm run build -w @troupe/runtime)', () => {
    expect(schemaText).toBe(graphJsonSchemaText());
  });

  it('keeps its id, title and the descriptions editors show', () => {
    expect(schema).toMatchObject({ $id: GRAPH_SCHEMA_ID, title: 'Troupe graph file', description: expect.stringContaining('${ENV}') });
    expect(GRAPH_SCHEMA_ID).toBe('https://troupe.dev/schema/graph.schema.json');
    const definitions = schema['definitions'] as Record<string, { properties: Record<string, { description?: string }> }>;
    expect(definitions['agent']?.properties['placement']?.description).toMatch(/^Where its actors run/);
    expect(definitions['model']?.properties['thinking']?.description).toMatch(/^How hard the model thinks/);
    expect(definitions['variable']).toMatchObject({ type: 'string', description: expect.stringContaining('${NAME}') });
  });

  it.each(examples)('accepts apps/examples/%s, which also loads', async (name) => {
    const file = join(root, 'apps/examples', name);
    expect(validate(parse(readFileSync(file, 'utf8')))).toEqual({ ok: true });
    await expect(loadGraphFile(file, { env: {} })).resolves.toMatchObject({ version: 1 });
  });

  it('rejects typos, wrong types and unknown step shapes', () => {
    const base = { version: 1, models: { m: { model: 'scripted' } }, agents: { a: { model: 'm' } } };
    expect(validate(base)).toEqual({ ok: true });
    expect(validate({ ...base, agents: { a: { model: 'm', tools: ['clock', { module: './tools/weather.ts' }, { bash: { timeoutMs: 5 } }] } } })).toEqual({
      ok: true,
    });
    expect(validate({ ...base, agents: { a: { model: 'm', sytem: 'x' } } }).ok).toBe(false);
    expect(validate({ ...base, agents: { a: { model: 'm', limits: { maxTurns: 'ten' } } } }).ok).toBe(false);
    // A variable stands for a number or a boolean: the loader converts it.
    expect(validate({ ...base, agents: { a: { model: 'm', limits: { maxTurns: '${MAX_TURNS:-5}' }, concurrency: '${N}' } } })).toEqual({ ok: true });
    expect(validate({ ...base, pipelines: { p: { steps: [{ id: 's', agnet: 'a' }] } } }).ok).toBe(false);
    expect(validate({ ...base, version: 2 }).ok).toBe(false);
  });

  it('has exactly the keys the loader reads for agents and models', () => {
    const definitions = schema['definitions'] as Record<string, { properties: Record<string, unknown> }>;
    expect(Object.keys(definitions['agent']?.properties ?? {}).sort()).toEqual(Object.keys(AGENT_FIELDS).sort());
    expect(Object.keys(definitions['model']?.properties ?? {}).sort()).toEqual(Object.keys(MODEL_FIELDS).sort());
  });

  it('accepts the run settings and rejects their typos', () => {
    const base = { version: 1, models: { m: { model: 'scripted', thinking: 'xhigh', temperature: 0.3, topP: 0.9 } } };
    const agent = {
      model: 'm',
      retry: { maxRetries: 2, baseDelayMs: 500, maxDelayMs: 5000 },
      toolExecution: { mode: 'batched', size: 2 },
      steeringMode: 'all',
      followUpMode: 'one-at-a-time',
      outputSchema: { type: 'object' },
      outputRetries: 2,
      completion: 'task',
      guardrails: [
        { maxInputLength: 4000 },
        { denyPatterns: ['rm -rf'] },
        { denyPatterns: { patterns: ['x'], ignoreCase: false, reason: 'no' } },
        { module: './guards/pii.ts' },
      ],
    };
    expect(validate({ ...base, agents: { a: agent } })).toEqual({ ok: true });
    expect(validate({ ...base, agents: { a: { ...agent, toolExecution: 'sequential' } } })).toEqual({ ok: true });
    for (const bad of [
      { toolExecution: 'serial' },
      { steeringMode: 'some' },
      { guardrails: [{ maxInputLenght: 4 }] },
      { guardrails: [{ denyPatterns: [] }] },
      { retry: { tries: 2 } },
    ]) {
      expect(validate({ ...base, agents: { a: { model: 'm', ...bad } } }).ok).toBe(false);
    }
    expect(validate({ ...base, models: { m: { model: 'scripted', topP: 0 } }, agents: { a: { model: 'm' } } }).ok).toBe(false);
  });
});
