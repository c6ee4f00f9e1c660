/**
 * Proves the loader and the published JSON Schema (built from the loader's readers) judge graph
 * files alike: every example of the repository, every fixture graph and script file, and every
 * valid graph the config tests load is accepted by both; every bad graph of the corpus (a wrong
 * type, an unknown key, a value outside its enum or range, a missing required key, an empty
 * section, a bad name) and the bad script fixture are rejected by both. The schema sees the YAML
 * as the loader does (`${…}` in flow collections is one scalar), so it is given the loader's
 * parse of the text.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { SchemaValidator, type ValidationResult } from '@troupe/core';
import { describe, expect, it } from 'vitest';
import { GraphFileError } from '../../src/config/graph-file-error.js';
import { loadGraphFile, parseGraph } from '../../src/config/load-graph.js';
import { YamlSource } from '../../src/config/yaml-source.js';
import { INVALID_GRAPHS, VALID_GRAPHS, type CorpusGraph } from './graph-corpus.js';

const root = fileURLToPath(new URL('../../../../', import.meta.url));
const fixtures = fileURLToPath(new URL('./fixtures/', import.meta.url));
const schema = JSON.parse(readFileSync(join(root, 'packages/runtime/schema/graph.schema.json'), 'utf8')) as Record<string, unknown>;
const validator = new SchemaValidator();
const validateGraph = validator.compile(schema);
/** A script file (`scriptFile:`) is what a model's `script` holds. */
const validateScript = validator.compile({ definitions: schema['definitions'], type: 'array', minItems: 1, items: { $ref: '#/definitions/scriptStep' } });

/** The data the loader reads from `text`. */
function dataOf(text: string): unknown {
  const source = YamlSource.parse('corpus.yaml', text);
  expect(source.syntaxProblems()).toEqual([]);
  return source.doc.toJS();
}

/** The loader's problems with a graph, `[]` when it loads; keys missing from the env are not problems here. */
async function loaderProblems(graph: CorpusGraph): Promise<string[]> {
  const options = {
    file: graph.file ?? 'g.yaml',
    env: graph.env ?? {},
    onMissingKey: () => undefined,
    ...(graph.entry === undefined ? {} : { entry: graph.entry }),
  };
  try {
    await parseGraph(graph.text, options);
    return [];
  } catch (error) {
    if (error instanceof GraphFileError) return error.problems.map((problem) => problem.message);
    throw error;
  }
}

const examples = readdirSync(join(root, 'apps/examples')).filter((name) => name.endsWith('.yaml'));
const graphFixtures = ['assistant.yaml'];
const scriptFixtures = { valid: ['steps.yaml'], invalid: ['bad-steps.yaml'] };

describe('the loader and the published schema', () => {
  it('cover every YAML fixture between them', () => {
    const listed = [...graphFixtures, ...scriptFixtures.valid, ...scriptFixtures.invalid].sort();
    expect(
      readdirSync(fixtures)
        .filter((name) => name.endsWith('.yaml'))
        .sort(),
    ).toEqual(listed);
  });

  it.each(examples)('both accept apps/examples/%s', async (name) => {
    const file = join(root, 'apps/examples', name);
    expect(validateGraph(dataOf(readFileSync(file, 'utf8')))).toEqual({ ok: true });
    await expect(loadGraphFile(file, { env: {}, onMissingKey: () => undefined })).resolves.toMatchObject({ version: 1 });
  });

  it.each(graphFixtures)('both accept the fixture %s', async (name) => {
    const file = join(fixtures, name);
    expect(validateGraph(dataOf(readFileSync(file, 'utf8')))).toEqual({ ok: true });
    await expect(loadGraphFile(file, { env: {} })).resolves.toMatchObject({ version: 1 });
  });

  it.each(VALID_GRAPHS.map((graph) => [graph.name, graph] as const))('both accept %s', async (_name, graph) => {
    expect(validateGraph(dataOf(graph.text))).toEqual({ ok: true });
    expect(await loaderProblems(graph)).toEqual([]);
  });

  it.each(INVALID_GRAPHS.map((graph) => [graph.name, graph] as const))('both reject %s', async (_name, graph) => {
    const checked: ValidationResult = validateGraph(dataOf(graph.text));
    expect(checked.ok, `the schema accepts ${graph.text}`).toBe(false);
    expect((await loaderProblems(graph)).length, `the loader accepts ${graph.text}`).toBeGreaterThan(0);
  });

  it('both accept the valid script fixture and reject the bad one', async () => {
    for (const name of scriptFixtures.valid) expect(validateScript(dataOf(readFileSync(join(fixtures, name), 'utf8')))).toEqual({ ok: true });
    for (const name of scriptFixtures.invalid) expect(validateScript(dataOf(readFileSync(join(fixtures, name), 'utf8'))).ok).toBe(false);
    const withScript = (name: string): CorpusGraph => ({
      name,
      file: join(fixtures, 'graph.yaml'),
      text: `version: 1\nmodels:\n  m: { model: scripted, scriptFile: ./${name} }\nagents:\n  a: { model: m }\n`,
    });
    for (const name of scriptFixtures.valid) expect(await loaderProblems(withScript(name))).toEqual([]);
    for (const name of scriptFixtures.invalid) expect((await loaderProblems(withScript(name))).length).toBeGreaterThan(0);
  });
});
