/**
 * A stdio MCP server that opts in (`sandbox:`) runs in bubblewrap: the real
 * @modelcontextprotocol/server-everything starts, lists and calls its tools from inside it, and
 * its process is `bwrap` around the server. An HTTP server cannot ask for one.
 */
import { readFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseGraph } from '../../src/config/load-graph.js';
import { connectMcpServers, createGraphMcpHub } from '../../src/mcp/graph-mcp.js';
import { everything, toolContext } from './server-everything.js';

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'troupe-sandboxed-mcp-'));
});
afterAll(() => rm(dir, { recursive: true, force: true }));

function graphWith(server: string) {
  return parseGraph(
    [
      'version: 1',
      'entry: a',
      'models:',
      '  demo: { model: scripted, script: [{ text: hi }] }',
      'mcpServers:',
      `  ev: ${server}`,
      'agents:',
      '  a: { model: demo, tools: [ev.echo] }',
    ].join('\n'),
    { file: join(dir, 'graph.yaml'), env: {} },
  );
}

describe('a sandboxed stdio MCP server', () => {
  it('runs in bubblewrap and serves its tools', async () => {
    const graph = await graphWith(
      `{ command: ${JSON.stringify(process.execPath)}, args: [${JSON.stringify(everything)}, stdio], cwd: ${JSON.stringify(dir)}, sandbox: required }`,
    );
    expect(graph.mcpServers?.['ev']?.sandbox).toEqual({ mode: 'required' });
    const hub = createGraphMcpHub(graph, { closeGraceMs: 500 });
    try {
      expect(await connectMcpServers(graph, hub)).toEqual([]);
      const pid = hub.client('ev').info()?.pid;
      expect(pid).toEqual(expect.any(Number));
      const argv = readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0');
      expect(argv[0]).toBe('bwrap');
      expect(argv.slice(argv.indexOf('--') + 1, -1)).toEqual([process.execPath, everything, 'stdio']);
      const [echo] = await hub.tools(['ev.echo']);
      const result = await echo?.execute({ message: 'inside' }, toolContext());
      expect(result).toMatchObject({ content: [{ type: 'text', text: 'Echo: inside' }] });
    } finally {
      await hub.close();
    }
  });

  it('with a host allow-list, runs under the network bridge and still speaks MCP on stdio', async () => {
    const graph = await graphWith(
      `{ command: ${JSON.stringify(process.execPath)}, args: [${JSON.stringify(everything)}, stdio], cwd: ${JSON.stringify(dir)}, sandbox: { mode: required, network: { allow: [registry.npmjs.org] } } }`,
    );
    const hub = createGraphMcpHub(graph, { closeGraceMs: 500 });
    try {
      expect(await connectMcpServers(graph, hub)).toEqual([]);
      const argv = readFileSync(`/proc/${hub.client('ev').info()?.pid}/cmdline`, 'utf8').split('\0');
      const command = argv.slice(argv.indexOf('--') + 1, -1);
      expect(command[1]).toMatch(/network-bridge\.mjs$/);
      expect(command.slice(-3)).toEqual([process.execPath, everything, 'stdio']);
      const [echo] = await hub.tools(['ev.echo']);
      expect(await echo?.execute({ message: 'bridged' }, toolContext())).toMatchObject({ content: [{ type: 'text', text: 'Echo: bridged' }] });
    } finally {
      await hub.close();
    }
  });

  it('may only be asked of a stdio server', async () => {
    await expect(graphWith('{ url: "http://127.0.0.1:1/mcp", sandbox: auto }')).rejects.toMatchObject({
      problems: [expect.objectContaining({ message: expect.stringContaining('"sandbox" in mcpServers.ev only applies to stdio servers') })],
    });
  });
});
