/**
 * Regressions found by the graph files fuzz test (graph-files-fuzz.int.test.ts): an alias bomb
 * (each level a list of aliases of the level below) under a key read as plain JSON, such as
 * `outputSchema`, made the loader expand it without end (seed 4242: width 8, depth 10 never
 * returned), and an alias inside its own value made it overflow the stack (a RangeError, not a
 * GraphFileError). Both are now one problem at the alias; ordinary aliases still load.
 */
import { describe, expect, it } from 'vitest';
import { GraphFileError, parseGraph } from '../../src/index.js';

const MODELS = 'models:\n  m: { model: scripted, script: [{ text: hi }] }';

/** `depth` levels of `width` aliases each (defined before their use, as YAML requires), used under `outputSchema`. */
function bomb(width: number, depth: number): string {
  const levels = [`x0: &x0 [${Array.from({ length: width }, () => '"lol"').join(', ')}]`];
  for (let d = 1; d < depth; d++) levels.push(`x${d}: &x${d} [${Array.from({ length: width }, () => `*x${d - 1}`).join(', ')}]`);
  return `version: 1\n${MODELS}\nbomb:\n  ${levels.join('\n  ')}\nagents:\n  a: { model: m, outputSchema: { type: object, default: *x${depth - 1} } }\n`;
}

async function problemsOf(text: string): Promise<string[]> {
  const error = await parseGraph(text, { file: 'g.yaml', env: {} }).then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(GraphFileError);
  return (error as GraphFileError).problems.map((p) => `${p.line}:${p.col}: ${p.message}`);
}

describe('aliases that expand without end', () => {
  it('refuses an alias bomb at the alias where it passes the limit, without expanding it', async () => {
    const text = bomb(8, 10);
    expect(await problemsOf(text)).toEqual([
      expect.stringMatching(/^\d+:\d+: the aliases up to \*x\d stand for more than 100000 values in all \(an alias bomb\?\)$/),
    ]);
  });

  it('refuses an alias inside its own value', async () => {
    const text = `version: 1\n${MODELS}\nagents:\n  a: { model: m, outputSchema: &s { type: object, properties: { a: *s } } }\n`;
    expect(await problemsOf(text)).toEqual(['5:68: alias *s refers to a value that contains it']);
  });

  it('still loads ordinary aliases', async () => {
    const text = `version: 1\n${MODELS}\nagents:\n  a: { model: m, limits: &l { maxTurns: 3 } }\n  b: { model: m, limits: *l }\nentry: a\n`;
    const graph = await parseGraph(text, { file: 'g.yaml', env: {} });
    expect(graph.agents.b?.limits).toEqual(graph.agents.a?.limits);
  });
});
