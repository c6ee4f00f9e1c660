import { connectMcpServers, createGraphMcpHub, mcpServersUsedBy, type GraphConfig, type Logger, type McpHub } from '@troupe/runtime';
import type { CliIo } from '../cli-io.js';

/** The MCP servers a command started, to pass to agents and to close when done. */
export interface McpSession {
  /** Undefined when the agents use no MCP server. */
  hub: McpHub | undefined;
  /** Whether a server could not be started or reached (each failure was printed). */
  failed: boolean;
  /** Ends every server process; never rejects. */
  close(): Promise<void>;
}

/**
 * Starts the MCP servers that `agents` take tools from and lists their tools, so the agents can
 * be built. Each server that fails is printed to `io.stderr` as `troupe <command>: <reason>`; the
 * servers go to `logger` (their stderr included).
 */
export async function startMcpServers(graph: GraphConfig, agents: readonly string[], logger: Logger, io: CliIo, command: string): Promise<McpSession> {
  if (mcpServersUsedBy(graph, agents).length === 0) return { hub: undefined, failed: false, close: async () => undefined };
  const hub = createGraphMcpHub(graph, { logger });
  const failures = await connectMcpServers(graph, hub, agents);
  for (const failure of failures) io.stderr(`troupe ${command}: ${failure.error ?? `MCP server "${failure.server}" is unavailable`}\n`);
  return { hub, failed: failures.length > 0, close: () => hub.close() };
}
