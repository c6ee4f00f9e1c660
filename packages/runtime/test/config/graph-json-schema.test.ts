/**
 * The published JSON Schema of graph files (`@troupe/runtime/graph.schema.json`, for editors):
 * every example graph of the repository validates against it and loads; files with a typo'd
 * key, a wrong type or an unknown step shape do not validate.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { SchemaValidator } from '@troupe/core';
import { parse } from 'yaml';
import { describe, expect, it } from 'vitest';
import { loadGraphFile } from '../../src/index.js';

const root = fileURLToPath(new URL('../../../../', import.meta.url));
const schema = JSON.parse(readFileSync(join(root, 'packages/runtime/schema/graph.schema.json'), 'utf8')) as Record<string, unknown>;
const validate = new SchemaValidator().compile(schema);
const examples = readdirSync(join(root, 'apps/examples')).filter((name) => name.endsWith('.yaml'));

describe('graph JSON Schema', () => {
  it.each(examples)('accepts apps/examples/%s, which also loads', async (name) => {
    const file = join(root, 'apps/examples', name);
    expect(validate(parse(readFileSync(file, 'utf8')))).toEqual({ ok: true });
    await expect(loadGraphFile(file, { env: {} })).resolves.toMatchObject({ version: 1 });
  });

  it('rejects typos, wrong types and unknown step shapes', () => {
    const base = { version: 1, models: { m: { model: 'scripted' } }, agents: { a: { model: 'm' } } };
    expect(validate(base)).toEqual({ ok: true });
    expect(validate({ ...base, agents: { a: { model: 'm', tools: ['clock', { module: './tools/weather.ts' }, { bash: { timeoutMs: 5 } }] } } })).toEqual({ ok: true });
    expect(validate({ ...base, agents: { a: { model: 'm', sytem: 'x' } } }).ok).toBe(false);
    expect(validate({ ...base, agents: { a: { model: 'm', limits: { maxTurns: 'ten' } } } }).ok).toBe(false);
    expect(validate({ ...base, pipelines: { p: { steps: [{ id: 's', agnet: 'a' }] } } }).ok).toBe(false);
    expect(validate({ ...base, version: 2 }).ok).toBe(false);
  });
});
