import { TroupeError } from '@troupe/core';
import { createMcpHub, parseToolSelector, type McpClientOptions, type McpConnectReport, type McpHub, type McpServerConfig } from '@troupe/mcp';
import { sandboxedArgv } from '@troupe/tools/node';
import type { GraphConfig, GraphMcpServer } from '../config/graph-config.js';
import { GraphErrorCode } from '../runtime-error-codes.js';

/**
 * The MCP servers of a loaded graph as a hub (see `@troupe/mcp`): nothing starts until
 * `connect` or a tool call. Pass `logger` (the runtime's pino logger fits) to get servers'
 * stderr, connections and crashes in the logs. Whoever creates the hub closes it.
 */
export function createGraphMcpHub(graph: GraphConfig, options: McpClientOptions = {}): McpHub {
  const servers = Object.entries(graph.mcpServers ?? {}).map(([name, server]) => [name, inSandbox(name, server)] as const);
  return createMcpHub(Object.fromEntries(servers), options);
}

/**
 * A stdio server's config with its command run in the sandbox it asks for (`sandbox:`), its
 * working directory as the workspace. Throws `sandbox_unavailable` for `required` on a machine
 * without one.
 */
function inSandbox(name: string, server: GraphMcpServer): McpServerConfig {
  const { sandbox, ...config } = server;
  if (sandbox === undefined || !('command' in config)) return config;
  const cwd = config.cwd ?? process.cwd();
  const argv = sandboxedArgv(sandbox, { workspace: cwd, cwd }, [config.command, ...(config.args ?? [])]);
  if ('refused' in argv) throw new TroupeError(GraphErrorCode.SandboxUnavailable, `MCP server "${name}": ${argv.refused}`);
  return { ...config, command: argv.file, args: argv.args };
}

/** The servers the given agents (default: all) take tools from or name in their permissions, in configuration order. */
export function mcpServersUsedBy(graph: GraphConfig, agents: readonly string[] = Object.keys(graph.agents)): string[] {
  const used = new Set<string>();
  for (const name of agents) {
    const agent = Object.hasOwn(graph.agents, name) ? graph.agents[name] : undefined;
    for (const selector of agent?.mcpTools ?? []) {
      const server = parseToolSelector(selector)?.server;
      if (server !== undefined) used.add(server);
    }
  }
  return Object.keys(graph.mcpServers ?? {}).filter((server) => used.has(server));
}

/**
 * Connects the servers `agents` use (default: every agent's) and lists their tools, so agents
 * can be built from the graph synchronously afterwards. Resolves with the servers that failed
 * (empty when all are up); never rejects.
 */
export async function connectMcpServers(graph: GraphConfig, hub: McpHub, agents?: readonly string[]): Promise<McpConnectReport[]> {
  const reports = await hub.connect(mcpServersUsedBy(graph, agents));
  return reports.filter((report) => !report.ok);
}
