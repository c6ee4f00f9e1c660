/**
 * Proves the search tool on a real tree, with the JavaScript engine always and with ripgrep when
 * it is installed (the same expectations for both): regex matches as `path:line: text` in path
 * order, case-insensitive search, include globs relative to the workspace, a search below a path
 * or in one file, the result cap with its note, binary files and .git/node_modules skipped, a bad
 * pattern reported as an error result, and paths outside the workspace refused.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { findExecutable } from '../../../src/node/search/find-executable.js';
import { createSearchTool } from '../../../src/node/search/search-tool.js';
import { testToolContext } from '../../tool-context.js';
import { tempWorkspace, textOf } from '../temp-workspace.js';

let ws: Awaited<ReturnType<typeof tempWorkspace>>;
beforeAll(async () => {
  ws = await tempWorkspace({
    'src/a.ts': 'export const Alpha = 1;\nconst beta = 2;\n',
    'src/b.tsx': 'const alpha = <div/>;\n',
    'lib/c.js': 'alpha();\nalpha();\nalpha();\n',
    'data.bin': Buffer.from([0x61, 0x6c, 0x70, 0x68, 0x61, 0, 1]),
    'node_modules/m/i.js': 'alpha',
  });
});
afterAll(() => ws.remove());

const rg = await findExecutable('rg');
const engines = rg === undefined ? (['js'] as const) : (['js', 'ripgrep'] as const);

describe.each(engines)('search (%s)', (engine) => {
  const run = async (args: Record<string, unknown>, settings: Record<string, unknown> = {}) =>
    createSearchTool({ workspace: ws.root, settings: { engine, ...settings } }).execute(args, testToolContext());

  it('finds regex matches in path order', async () => {
    const result = await run({ pattern: 'alpha' });
    expect(result.content).toBe(['lib/c.js:1: alpha();', 'lib/c.js:2: alpha();', 'lib/c.js:3: alpha();', 'src/b.tsx:1: const alpha = <div/>;'].join('\n'));
    expect(result.details).toEqual({ engine, count: 4, truncated: false });
  });

  it('ignores case on request and filters with include globs', async () => {
    expect(textOf((await run({ pattern: 'ALPHA', ignore_case: true, include: '*.{ts,tsx}' })).content)).toBe(
      'src/a.ts:1: export const Alpha = 1;\nsrc/b.tsx:1: const alpha = <div/>;',
    );
    expect(textOf((await run({ pattern: 'const', include: 'src/*.ts' })).content)).toBe('src/a.ts:1: export const Alpha = 1;\nsrc/a.ts:2: const beta = 2;');
  });

  it('searches below a path or in one file', async () => {
    expect(textOf((await run({ pattern: 'a', path: 'src/a.ts' })).content)).toBe('src/a.ts:1: export const Alpha = 1;\nsrc/a.ts:2: const beta = 2;');
    expect(textOf((await run({ pattern: 'beta|alpha', path: 'src' })).content)).toBe('src/a.ts:2: const beta = 2;\nsrc/b.tsx:1: const alpha = <div/>;');
  });

  it('caps the results with a note', async () => {
    const result = await run({ pattern: 'alpha' }, { maxResults: 2 });
    expect(result.content).toBe(
      'lib/c.js:1: alpha();\nlib/c.js:2: alpha();\n\n[results cut at 2 matches; narrow the search with path, include or a more specific pattern]',
    );
    expect(result.details).toMatchObject({ truncated: true });
  });

  it('reports no matches, bad patterns and paths outside', async () => {
    expect((await run({ pattern: 'zeta' })).content).toBe('No matches for /zeta/ in ..');
    expect(await run({ pattern: '(' })).toMatchObject({ isError: true, content: expect.stringMatching(/^search: /) });
    expect(await run({ pattern: 'x', path: '../' })).toMatchObject({ isError: true, content: expect.stringMatching(/outside the workspace/) });
  });
});

describe('search engine choice', () => {
  it('says so when ripgrep is required but missing', async () => {
    const tool = createSearchTool({ workspace: ws.root, settings: { engine: 'ripgrep' } });
    const original = process.env['PATH'];
    process.env['PATH'] = '/nonexistent';
    try {
      expect(await tool.execute({ pattern: 'a' }, testToolContext())).toMatchObject({
        isError: true,
        content: 'search: ripgrep (rg) is not installed, and this search tool is set to use only ripgrep',
      });
    } finally {
      process.env['PATH'] = original;
    }
  });
});
