/**
 * Proves the CLI's MCP commands in-process against the real @modelcontextprotocol/server-everything:
 * `troupe mcp tools` lists each server's tools with the names the model sees and their input
 * schemas (text and `--json`), reports a server that cannot start and exits 1 after listing the
 * others, exits 2 with positions for a bad file; `troupe run` runs an agent that calls an MCP tool
 * and a built-in tool in one turn, leaves no server process behind, and exits 1 with the reason
 * when a server its agent needs cannot start.
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli } from '../../src/cli.js';
import { captureIo, fixturePath } from '../run-cli.js';

const require = createRequire(import.meta.url);
const manifest = require.resolve('@modelcontextprotocol/server-everything/package.json');
const EVERYTHING = join(
  dirname(manifest),
  (JSON.parse(readFileSync(manifest, 'utf8')) as { bin: Record<string, string> }).bin['mcp-server-everything'] as string,
);
const env = { NODE: process.execPath, EVERYTHING };

function alive(pid: number): boolean {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2)[0] !== 'Z';
  } catch {
    return false;
  }
}

// Real server processes: starting one can take seconds on a loaded machine.
describe('troupe mcp tools', { timeout: 30_000 }, () => {
  it('lists every tool with its schema', async () => {
    const io = captureIo({ env });
    expect(await runCli(['mcp', 'tools', fixturePath('mcp.yaml')], io)).toBe(0);
    const text = io.stdoutText();
    expect(text).toMatch(/^everything \(stdio, mcp-servers\/everything [\d.]+\): \d+ tools\n/);
    expect(text).toContain('  everything__echo (echo) — Echoes back the input string\n    {\n      "type": "object",');
    expect(text).toContain('"message": {');
  });

  it('prints one JSON object per server with --json', async () => {
    const io = captureIo({ env });
    expect(await runCli(['mcp', 'tools', fixturePath('mcp.yaml'), '--json'], io)).toBe(0);
    const [line, ...rest] = io.stdoutText().trimEnd().split('\n');
    expect(rest).toEqual([]);
    const server = JSON.parse(line as string) as {
      server: string;
      ok: boolean;
      transport: string;
      tools: { name: string; exposedName: string; inputSchema: unknown }[];
    };
    expect(server).toMatchObject({ server: 'everything', ok: true, transport: 'stdio' });
    expect(server.tools.find((t) => t.name === 'get-sum')).toMatchObject({
      exposedName: 'everything__get-sum',
      inputSchema: { type: 'object', required: ['a', 'b'] },
    });
  });

  it('reports a server that cannot start, lists the others and exits 1', async () => {
    const io = captureIo({ env });
    expect(await runCli(['mcp', 'tools', fixturePath('mcp-broken.yaml')], io)).toBe(1);
    expect(io.stdoutText()).toContain('  ev_echo (echo) — Echoes back the input string');
    expect(io.stdoutText()).toContain('missing: unavailable: MCP server "missing" could not be started: spawn troupe-no-such-mcp-server ENOENT\n');
  });

  it('exits 2 for a bad file', async () => {
    const io = captureIo({ env: {} });
    expect(await runCli(['mcp', 'tools', fixturePath('mcp.yaml')], io)).toBe(2);
    expect(io.stderrText()).toContain('mcp.yaml:15:14: environment variable "NODE" is not set');
    expect(io.stderrText()).toContain('mcp.yaml:16:13: environment variable "EVERYTHING" is not set');
  });
});

describe('troupe run with mcpServers', { timeout: 30_000 }, () => {
  it('runs an agent calling an MCP tool and a built-in tool, and stops the server', async () => {
    const io = captureIo({ env });
    const code = await runCli(['run', fixturePath('mcp.yaml'), '-i', 'go', '--log-level', 'info'], io);
    expect(io.stdoutText()).toBe('Asking both.\nFiles: mcp-broken.yaml\nmcp.yaml\n');
    expect(code).toBe(0);
    const connected = io.err
      .flatMap((text) => text.split('\n'))
      .filter((line) => line.startsWith('{'))
      .map((line) => JSON.parse(line) as { msg: string; pid?: number })
      .find((entry) => entry.msg === 'MCP server connected');
    expect(connected?.pid).toEqual(expect.any(Number));
    expect(alive(connected?.pid as number)).toBe(false);
  });

  it('exits 1 when a server the agent needs cannot start', async () => {
    const io = captureIo({ env });
    expect(await runCli(['run', fixturePath('mcp-broken.yaml'), '-i', 'go'], io)).toBe(1);
    expect(io.stderrText()).toContain('\ntroupe run: MCP server "missing" could not be started: spawn troupe-no-such-mcp-server ENOENT\n');
    expect(io.stdoutText()).toBe('');
  });
});
