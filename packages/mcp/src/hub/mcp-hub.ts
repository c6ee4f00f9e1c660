import type { Tool } from '@troupe/core';
import { createMcpClient } from '../connection/create-mcp-client.js';
import type { McpClient } from '../connection/mcp-client.js';
import type { McpClientOptions } from '../connection/mcp-client-options.js';
import { McpAdapterError, McpErrorCode, messageOf } from '../mcp-errors.js';
import { MCP_SERVER_NAME, type McpServerConfig } from '../mcp-server-config.js';
import type { McpServerInfo, McpToolInfo } from '../mcp-types.js';
import { parseToolSelector } from './tool-selector.js';

/** How connecting one server went. */
export interface McpConnectReport {
  server: string;
  ok: boolean;
  info?: McpServerInfo;
  tools?: McpToolInfo[];
  /** Why it failed. */
  error?: string;
}

/**
 * The MCP servers of a configuration (`mcpServers`), each an {@link McpClient} connected on
 * first use, and the resolution of tool selectors (`server.*`, `server.tool`) to core tools.
 *
 * Contract: `connect` never rejects; it reports each server's outcome. `select` is synchronous
 * and uses the tool lists fetched so far, so servers must have been connected (`connect`, or
 * `tools` which does both); it throws one `mcp_bad_selector` McpAdapterError listing every
 * problem (malformed selector, unknown server, unavailable server, unknown tool), or
 * `mcp_unknown_server` from `client`. Each `select` returns fresh tool instances. `close` closes
 * every client (ending stdio servers) and never rejects.
 */
export interface McpHub {
  /** The configured server names, in configuration order. */
  names(): string[];
  has(name: string): boolean;
  client(name: string): McpClient;
  /** Connects and lists the tools of `names` (default: every server), concurrently. */
  connect(names?: readonly string[]): Promise<McpConnectReport[]>;
  select(selectors: readonly string[]): Tool[];
  /** Connects the servers the selectors name, then {@link McpHub.select}. */
  tools(selectors: readonly string[]): Promise<Tool[]>;
  close(): Promise<void>;
}

/** A hub for `servers`; throws for a server name that cannot be used in selectors (misuse). */
export function createMcpHub(servers: Readonly<Record<string, McpServerConfig>>, options: McpClientOptions = {}): McpHub {
  const clients = new Map<string, McpClient>();
  for (const [name, config] of Object.entries(servers)) {
    if (!MCP_SERVER_NAME.test(name)) throw new McpAdapterError(McpErrorCode.BadSelector, `invalid MCP server name "${name}": use letters, digits, "_" and "-"`);
    clients.set(name, createMcpClient(name, config, options));
  }
  const client = (name: string): McpClient => {
    const found = clients.get(name);
    if (found === undefined)
      throw new McpAdapterError(McpErrorCode.UnknownServer, `unknown MCP server "${name}": configured servers: ${[...clients.keys()].join(', ') || 'none'}`, {
        server: name,
      });
    return found;
  };
  const connect = async (names: readonly string[] = [...clients.keys()]): Promise<McpConnectReport[]> =>
    Promise.all(
      names.map(async (server): Promise<McpConnectReport> => {
        try {
          const c = client(server);
          const tools = await c.listTools();
          const info = c.info();
          return info === undefined ? { server, ok: true, tools } : { server, ok: true, info, tools };
        } catch (error) {
          return { server, ok: false, error: messageOf(error) };
        }
      }),
    );
  const select = (selectors: readonly string[]): Tool[] => {
    const problems: string[] = [];
    const chosen = new Map<string, Tool>();
    for (const text of selectors) {
      const selector = parseToolSelector(text);
      if (selector === undefined) {
        problems.push(`"${text}" is not a tool selector: write server.tool or server.*`);
        continue;
      }
      const c = clients.get(selector.server);
      if (c === undefined) {
        problems.push(`"${text}": unknown MCP server "${selector.server}" (configured: ${[...clients.keys()].join(', ') || 'none'})`);
        continue;
      }
      const known = c.knownTools();
      if (known === undefined) {
        problems.push(`"${text}": the MCP server "${selector.server}" is not connected${c.state === 'down' || c.state === 'closed' ? ` (${c.state})` : ''}`);
        continue;
      }
      const matching = selector.tool === '*' ? known : known.filter((tool) => tool.name === selector.tool);
      if (matching.length === 0 && selector.tool !== '*') {
        problems.push(
          `"${text}": the MCP server "${selector.server}" has no tool "${selector.tool}" (its tools: ${known.map((t) => t.name).join(', ') || 'none'})`,
        );
      }
      for (const info of matching) if (!chosen.has(info.exposedName)) chosen.set(info.exposedName, c.toolFor(info));
    }
    if (problems.length > 0) throw new McpAdapterError(McpErrorCode.BadSelector, problems.join('\n'), { data: { problems } });
    return [...chosen.values()];
  };
  return {
    names: () => [...clients.keys()],
    has: (name) => clients.has(name),
    client,
    connect,
    select,
    async tools(selectors) {
      const servers = new Set<string>();
      for (const text of selectors) {
        const server = parseToolSelector(text)?.server;
        if (server !== undefined && clients.has(server)) servers.add(server);
      }
      const reports = await connect([...servers]);
      const failed = reports.filter((report) => !report.ok);
      if (failed.length > 0) {
        throw new McpAdapterError(McpErrorCode.Unavailable, failed.map((report) => report.error ?? `MCP server "${report.server}" is unavailable`).join('\n'), {
          data: { servers: failed.map((r) => r.server) },
        });
      }
      return select(selectors);
    },
    async close() {
      await Promise.all([...clients.values()].map((c) => c.close().catch(() => undefined)));
    },
  };
}
