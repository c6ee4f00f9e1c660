/**
 * What `troupe` takes from the project it runs in, through the real command in a temporary
 * project: the `.env` of the current directory and of the graph file's directory are loaded (the
 * process environment wins, then the current directory's file), both for `${NAME}` in the graph
 * and for tools, which read them from `process.env`; runs are recorded in the graph file's project
 * root when no `.troupe` exists yet, and found again by walking up from any subdirectory
 * (`troupe runs`, `troupe show`); `--runs-dir` still overrides.
 */
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { spawnTroupe } from '../spawn-troupe.js';

let project = '';

beforeAll(() => {
  project = mkdtempSync(join(tmpdir(), 'troupe-project-'));
  const write = (path: string, lines: string[]): void => {
    mkdirSync(join(project, path, '..'), { recursive: true });
    writeFileSync(join(project, path), `${lines.join('\n')}\n`);
  };
  // .git marks the repository root: the walk for .troupe stops there.
  mkdirSync(join(project, '.git'));
  write('package.json', ['{ "name": "p", "private": true }']);
  write('app/.env', ['TT_WHERE=cwd', 'TT_WINNER=cwd-file', 'export TT_TOKEN="t0p s3cret" # for the tool']);
  write('agents/.env', ['TT_WHERE=graph-dir', 'TT_WHO=graph-dir', 'TT_WINNER=graph-file']);
  write('agents/tools/token.mjs', [
    "export default { name: 'token', description: 'The API token.', parameters: { type: 'object', properties: {} }, readOnly: true,",
    "  execute: () => ({ content: process.env.TT_TOKEN ?? 'unset' }) };",
  ]);
  write('agents/graph.yaml', [
    'version: 1',
    'models:',
    '  m:',
    '    model: scripted',
    '    script:',
    '      - toolCalls: [{ name: token }]',
    '      - text: "${TT_WHO} ${TT_WHERE} ${TT_WINNER} {{lastToolResult}}"',
    'agents:',
    '  a: { model: m, tools: [{ module: ./tools/token.mjs }] }',
  ]);
  mkdirSync(join(project, 'app/deep/er'), { recursive: true });
});

afterAll(() => {
  rmSync(project, { recursive: true, force: true });
});

describe('troupe in a project', { timeout: 30_000 }, () => {
  let runId = '';

  it('loads .env files for the graph and its tools, the process environment first, then the current directory', async () => {
    const result = await spawnTroupe(['run', '../agents/graph.yaml', '--input', 'hi'], { cwd: join(project, 'app'), env: { TT_WINNER: 'process' } });
    expect(result.stdout).toBe('graph-dir cwd process t0p s3cret\n');
    expect(result.code).toBe(0);
    runId = /run (run_\w+)/.exec(result.stderr)?.[1] ?? '';
    // No .troupe yet: the run is recorded in the graph file's project root (its package.json).
    expect(existsSync(join(project, '.troupe/runs', runId, 'run.json'))).toBe(true);
  });

  it('finds the runs folder from any subdirectory', async () => {
    const listed = await spawnTroupe(['runs'], { cwd: join(project, 'app/deep/er') });
    expect(listed.stdout).toMatch(new RegExp(`\\n${runId}\\s+done\\s+a\\s`));
    expect(listed.code).toBe(0);
    const shown = await spawnTroupe(['show', runId], { cwd: join(project, 'agents/tools') });
    expect(shown.stdout).toContain(`${runId}`);
    expect(shown.code).toBe(0);
  });

  it('takes --runs-dir over the folder it would find', async () => {
    const listed = await spawnTroupe(['runs', '--runs-dir', 'elsewhere'], { cwd: join(project, 'app') });
    expect(listed.stderr).toBe('troupe: no runs recorded in elsewhere\n');
    expect(listed.stdout).toBe('');
  });
});
