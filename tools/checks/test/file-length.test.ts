/**
 * No source or test file is past 400 lines (CONVENTIONS.md: past 400 lines, split by concept).
 * Biome's `noExcessiveLinesPerFile` says the same in the editor; this counts physical lines,
 * comments and blank lines included, so a file cannot creep past the limit in doc comments.
 */
import { readFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { sourceFiles } from './source-imports.js';

const root = join(dirname(fileURLToPath(import.meta.url)), '../../..');
const MAX_LINES = 400;
const trees = ['core', 'providers', 'tools', 'mcp', 'runtime', 'nats', 'otel', 'cli'].flatMap((pkg) => [`packages/${pkg}/src`, `packages/${pkg}/test`]);

describe('file length', () => {
  it(`keeps every source and test file within ${MAX_LINES} lines`, () => {
    const long = trees
      .flatMap((tree) => sourceFiles(join(root, tree)))
      .map((file) => ({ file: relative(root, file), lines: readFileSync(file, 'utf8').replace(/\n$/, '').split('\n').length }))
      .filter(({ lines }) => lines > MAX_LINES);
    expect(long).toEqual([]);
  });
});
