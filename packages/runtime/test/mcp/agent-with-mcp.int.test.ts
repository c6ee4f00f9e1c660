/**
 * Proves full agent runs that use an MCP tool and a built-in tool in the same turn, against the
 * real @modelcontextprotocol/server-everything over stdio: once wired by hand (core Agent, the
 * core scripted provider, the hub's tools and read_file), once from a graph file (mcpServers,
 * `tools: [read_file, ev.echo]`, a workspace, permission rules written with an MCP selector).
 * Also that building such an agent without a connected hub, or with a selector the running
 * server does not satisfy, fails with a typed error, and that no server process outlives close().
 */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Agent, textOf, type ToolResultMessage } from '@troupe/core';
import { createScriptedProvider } from '@troupe/core/testing';
import { createMcpHub, type McpHub } from '@troupe/mcp';
import { createReadFileTool } from '@troupe/tools/node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { agentOptionsFromConfig, createAgentFromConfig } from '../../src/agent-from-config.js';
import { parseGraph } from '../../src/config/load-graph.js';
import { connectMcpServers, createGraphMcpHub } from '../../src/mcp/graph-mcp.js';
import { everything } from './server-everything.js';

let dir: string;
const hubs: McpHub[] = [];

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'troupe-agent-mcp-'));
  await writeFile(join(dir, 'note.txt'), 'remember the milk\n');
}, 30_000);

afterAll(async () => {
  const pids = hubs.flatMap((hub) => hub.names().map((name) => hub.client(name).info()?.pid)).filter((pid): pid is number => pid !== undefined);
  await Promise.all(hubs.map((hub) => hub.close()));
  for (const pid of pids) expect(() => process.kill(pid, 0)).toThrow();
  await rm(dir, { recursive: true, force: true });
}, 30_000);

function toolResults(messages: readonly { role: string }[]): [string, string, boolean][] {
  return messages.filter((m): m is ToolResultMessage => m.role === 'toolResult').map((m) => [m.toolName, textOf(m), m.isError]);
}

const BOTH_IN_ONE_TURN = [
  {
    text: 'Checking both.',
    toolCalls: [
      { name: 'ev__echo', arguments: { message: 'ping' } },
      { name: 'read_file', arguments: { path: 'note.txt' } },
    ],
  },
  { text: 'The note says: {{lastToolResult}}' },
];

// Real server processes: starting one can take seconds on a loaded machine.
describe('an agent with MCP and built-in tools', { timeout: 30_000 }, () => {
  it('calls both in one turn (library wiring, core scripted provider)', async () => {
    const hub = createMcpHub({ ev: { command: process.execPath, args: [everything, 'stdio'] } }, { closeGraceMs: 500 });
    hubs.push(hub);
    const provider = createScriptedProvider(BOTH_IN_ONE_TURN);
    const agent = new Agent({
      provider,
      model: 'test',
      tools: [...(await hub.tools(['ev.echo'])), createReadFileTool({ workspace: dir })],
      permissions: { mode: 'allow' },
    });
    try {
      const result = await agent.prompt('What do we know?');
      expect(result.stopReason).toBe('stop');
      expect(result.turns).toBe(2);
      expect(toolResults(result.messages)).toEqual([
        ['ev__echo', 'Echo: ping', false],
        ['read_file', '     1\tremember the milk', false],
      ]);
      expect(provider.requests[0]?.tools?.map((t) => t.name)).toEqual(['ev__echo', 'read_file']);
    } finally {
      agent.dispose();
    }
  });

  it('calls both in one turn (from a graph file)', async () => {
    const graph = await parseGraph(
      [
        'version: 1',
        'models:',
        `  demo: { model: scripted, script: ${JSON.stringify(BOTH_IN_ONE_TURN)} }`,
        'mcpServers:',
        `  ev: { command: ${JSON.stringify(process.execPath)}, args: [${JSON.stringify(everything)}, stdio] }`,
        'agents:',
        '  helper:',
        '    model: demo',
        `    workspace: ${JSON.stringify(dir)}`,
        '    tools: [read_file, ev.echo]',
        '    permissions: { mode: smart, tools: { ev.echo: allow } }',
      ].join('\n'),
      { file: join(dir, 'graph.yaml'), env: {} },
    );
    const hub = createGraphMcpHub(graph, { closeGraceMs: 500 });
    hubs.push(hub);
    expect(await connectMcpServers(graph, hub)).toEqual([]);
    const options = agentOptionsFromConfig(graph, 'helper', { mcp: hub });
    expect(options.permissions).toEqual({ mode: 'smart', tools: { ev__echo: 'allow' } });
    const agent = createAgentFromConfig(graph, 'helper', { mcp: hub });
    try {
      const result = await agent.prompt('What do we know?');
      expect(result.stopReason).toBe('stop');
      expect(toolResults(result.messages)).toEqual([
        ['ev__echo', 'Echo: ping', false],
        ['read_file', '     1\tremember the milk', false],
      ]);
      expect(result.text).toBe('The note says:      1\tremember the milk');
    } finally {
      agent.dispose();
    }
  });

  it('fails with a typed error without a hub, or for a tool the server lacks', async () => {
    const graph = await parseGraph(
      [
        'version: 1',
        'models:',
        '  demo: { model: scripted, script: [{ text: hi }] }',
        'mcpServers:',
        `  ev: { command: ${JSON.stringify(process.execPath)}, args: [${JSON.stringify(everything)}, stdio] }`,
        'agents:',
        '  a: { model: demo, tools: [ev.ecko] }',
      ].join('\n'),
      { file: join(dir, 'graph.yaml'), env: {} },
    );
    expect(() => agentOptionsFromConfig(graph, 'a')).toThrow(
      expect.objectContaining({ code: 'mcp_unavailable', message: expect.stringMatching(/^agent "a" uses MCP tools \(ev\.ecko\)/) }),
    );
    const hub = createGraphMcpHub(graph, { closeGraceMs: 500 });
    hubs.push(hub);
    expect(await connectMcpServers(graph, hub)).toEqual([]);
    expect(() => agentOptionsFromConfig(graph, 'a', { mcp: hub })).toThrow(
      expect.objectContaining({ code: 'mcp_bad_selector', message: expect.stringMatching(/^agent "a": "ev.ecko": the MCP server "ev" has no tool "ecko"/) }),
    );
  });
});
