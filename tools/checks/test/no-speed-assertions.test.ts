/**
 * No test measures how fast something runs (issue 19: speed is measured by the scripts in
 * `tools/bench`, never by timed assertions in tests, which fail on a loaded machine and pass on
 * a fast one whatever the code does). A test that reads a clock to time the code under test
 * (`performance.now()`, `process.hrtime`, `process.cpuUsage`, `console.time`) fails here with its
 * file and line. Tests wait with latches and simulated clocks instead; `Date.now()` stays allowed,
 * as what code stamps on records and events.
 */
import { readdirSync, readFileSync, existsSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { sourceFiles } from './source-imports.js';

const root = join(dirname(fileURLToPath(import.meta.url)), '../../..');
const TIMERS = /\bperformance\.now\s*\(|\bprocess\.hrtime\b|\bprocess\.cpuUsage\s*\(|\bconsole\.time(?:End|Log)?\s*\(/;

/** Every package's and tool's test folder (this one's own file names the patterns, so it is left out). */
const testTrees = [
  ...readdirSync(join(root, 'packages')).map((pkg) => join(root, 'packages', pkg, 'test')),
  ...readdirSync(join(root, 'tools')).map((tool) => join(root, 'tools', tool, 'test')),
].filter((tree) => existsSync(tree));

describe('no speed assertions', () => {
  it('finds tests to read', () => {
    expect(testTrees.length).toBeGreaterThan(8);
  });

  it('has no test that times the code it tests', () => {
    const self = fileURLToPath(import.meta.url);
    const timed = testTrees
      .flatMap((tree) => sourceFiles(tree))
      .filter((file) => file !== self)
      .flatMap((file) =>
        readFileSync(file, 'utf8')
          .split('\n')
          .flatMap((line, index) => (TIMERS.test(line) ? [`${relative(root, file)}:${index + 1}: ${line.trim()}`] : [])),
      );
    expect(timed).toEqual([]);
  });
});
