/**
 * Runs the official MCP conformance client scenarios (@modelcontextprotocol/conformance 0.1.13,
 * the last version that runs on Node 20) against conformance-client.ts, a client built only on
 * this package's adapter: initialize, tools_call, elicitation-sep1034-client-defaults and
 * sse-retry, every scenario that needs no OAuth. Each must end with no failed check.
 */
import { spawn } from 'node:child_process';
import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const require = createRequire(import.meta.url);
const runner = join(dirname(require.resolve('@modelcontextprotocol/conformance/package.json')), 'dist', 'index.js');
const client = fileURLToPath(new URL('./conformance-client.ts', import.meta.url));
const tsx = require.resolve('tsx');

interface Check {
  id: string;
  status: 'SUCCESS' | 'FAILURE' | 'WARNING' | 'INFO';
  errorMessage?: string;
}

let out: string;
beforeAll(async () => {
  out = await mkdtemp(join(tmpdir(), 'troupe-conformance-'));
});
afterAll(() => rm(out, { recursive: true, force: true }));

/** Runs one scenario; resolves with the runner's exit code and the checks it saved. */
async function scenario(name: string): Promise<{ code: number | null; checks: Check[]; output: string }> {
  const dir = join(out, name.replace(/\W/g, '_'));
  const child = spawn(process.execPath, [runner, 'client', '--command', `${process.execPath} --import ${tsx} ${client}`, '--scenario', name, '-o', dir], {
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout.setEncoding('utf8').on('data', (chunk: string) => (output += chunk));
  child.stderr.setEncoding('utf8').on('data', (chunk: string) => (output += chunk));
  const code = await new Promise<number | null>((resolve) => child.on('close', resolve));
  const [run] = await readdir(dir);
  const checks = run === undefined ? [] : (JSON.parse(await readFile(join(dir, run, 'checks.json'), 'utf8')) as Check[]);
  return { code, checks, output };
}

async function expectPass(name: string): Promise<void> {
  const { code, checks, output } = await scenario(name);
  const failed = checks.filter((check) => check.status === 'FAILURE');
  expect(failed, output).toEqual([]);
  expect(checks.filter((check) => check.status === 'SUCCESS').length).toBeGreaterThan(0);
  expect(code, output).toBe(0);
}

describe('MCP conformance (client scenarios)', () => {
  // These do not measure time, so they run side by side.
  it.concurrent.each(['initialize', 'tools_call', 'elicitation-sep1034-client-defaults'])('%s passes', (name) => expectPass(name), 60_000);

  // sse-retry times the client's reconnection (500 ms ± tolerance): it runs alone.
  it('sse-retry passes', () => expectPass('sse-retry'), 60_000);
});
