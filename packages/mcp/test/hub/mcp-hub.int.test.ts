/**
 * Proves a hub of real servers (server-everything and server-memory over stdio, plus one whose
 * command does not exist): `connect` reports each server's outcome without throwing; selectors
 * `server.*` and `server.tool` resolve to fresh core tools, once each; every bad selector
 * (malformed, unknown server, unknown tool, unavailable server) is reported in one typed error;
 * and close() ends every server process.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createMcpHub, McpAdapterError, type McpHub } from '../../src/index.js';
import { alive, everythingStdio, memoryServer } from '../support/servers.js';

let dir: string;
let hub: McpHub;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'troupe-hub-'));
  hub = createMcpHub(
    { ev: everythingStdio(), mem: memoryServer(join(dir, 'memory.jsonl')), broken: { command: 'troupe-no-such-server' } },
    { closeGraceMs: 500 },
  );
});

afterAll(async () => {
  const pids = hub
    .names()
    .map((name) => hub.client(name).info()?.pid)
    .filter((pid): pid is number => pid !== undefined);
  await hub.close();
  for (const pid of pids) expect(alive(pid)).toBe(false);
  await rm(dir, { recursive: true, force: true });
});

describe('McpHub', () => {
  it('connects every server and reports each outcome', async () => {
    const reports = await hub.connect();
    expect(reports.map((r) => [r.server, r.ok])).toEqual([
      ['ev', true],
      ['mem', true],
      ['broken', false],
    ]);
    expect(reports[2]?.error).toBe('MCP server "broken" could not be started: spawn troupe-no-such-server ENOENT');
    expect(reports[1]?.info).toMatchObject({ transport: 'stdio', serverName: 'memory-server' });
  });

  it('resolves selectors to fresh core tools, each once', () => {
    const tools = hub.select(['mem.*', 'ev.echo', 'mem.read_graph']);
    const names = tools.map((t) => t.name);
    expect(names).toContain('mem__create_entities');
    expect(names).toContain('ev__echo');
    expect(names.filter((n) => n === 'mem__read_graph')).toHaveLength(1);
    expect(names).not.toContain('ev__get-sum');
    expect(hub.select(['ev.echo'])[0]).not.toBe(hub.select(['ev.echo'])[0]);
  });

  it('reports every bad selector at once', () => {
    let caught: unknown;
    try {
      hub.select(['ev.ecko', 'nope.*', 'broken.*', 'plain', 'ev.echo']);
    } catch (error) {
      caught = error;
    }
    expect(caught).toBeInstanceOf(McpAdapterError);
    const error = caught as McpAdapterError;
    expect(error.code).toBe('mcp_bad_selector');
    expect((error.data as { problems: string[] }).problems).toEqual([
      expect.stringMatching(/^"ev.ecko": the MCP server "ev" has no tool "ecko" \(its tools: echo, /),
      '"nope.*": unknown MCP server "nope" (configured: ev, mem, broken)',
      '"broken.*": the MCP server "broken" is not connected (down)',
      '"plain" is not a tool selector: write server.tool or server.*',
    ]);
  });

  it('tools() connects what the selectors need and fails clearly for unavailable servers', async () => {
    expect((await hub.tools(['ev.get-sum'])).map((t) => t.name)).toEqual(['ev__get-sum']);
    await expect(hub.tools(['broken.*'])).rejects.toMatchObject({
      code: 'mcp_unavailable',
      message: expect.stringMatching(/^MCP server "broken" (could not be started|is unavailable)/),
    });
    expect(() => hub.client('nope')).toThrow('unknown MCP server "nope": configured servers: ev, mem, broken');
  });
});
