/**
 * Each package keeps its error codes in one registry (`errors.ts`, `tool-error-code.ts`,
 * `runtime-error-codes.ts`…): no source file raises a `TroupeError` or builds an error
 * `{ code, message }` with a code written as a string literal, which is how code tables used to
 * spread over many files.
 */
import { readFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { sourceFiles } from './source-imports.js';

const root = join(dirname(fileURLToPath(import.meta.url)), '../../..');
const packages = ['core', 'providers', 'tools', 'mcp', 'runtime', 'nats', 'otel', 'cli'];

/** A code given as a literal: `new TroupeError('x', …)`, `super('x', …)` in an error class, or `{ code: 'x', message … }`. */
const LITERAL_CODE = /(?:new TroupeError|\bsuper)\(\s*['"`][a-z_]+['"`]\s*,|\bcode:\s*['"][a-z_]+['"]\s*,\s*message\b/;

describe('error codes', () => {
  for (const pkg of packages) {
    it(`${pkg} takes every error code from its registry`, () => {
      const offenders = sourceFiles(join(root, 'packages', pkg, 'src'))
        .filter((file) => !file.includes('/testing/'))
        .flatMap((file) =>
          readFileSync(file, 'utf8')
            .split('\n')
            .flatMap((line, i) => (LITERAL_CODE.test(line) ? [`${relative(root, file)}:${i + 1}: ${line.trim()}`] : [])),
        );
      expect(offenders).toEqual([]);
    });
  }
});
