import { isToolSource, type PermissionRules, type Tool, type ToolSource } from '@troupe/core';
import { McpAdapterError, McpErrorCode, parseToolSelector, type McpHub } from '@troupe/mcp';
import type { AgentConfig } from '../config/graph-config.js';

/**
 * The MCP tools of an agent: its selectors resolved against the hub's tool lists (fresh tool
 * instances). Throws `mcp_unavailable` when the agent has selectors but no hub was given, and
 * the hub's `mcp_bad_selector` error naming every selector that matches nothing.
 */
export function mcpToolsOf(agent: AgentConfig, hub: McpHub | undefined): Tool[] {
  const selectors = agent.mcpTools ?? [];
  if (selectors.length === 0) return [];
  if (hub === undefined) {
    throw new McpAdapterError(
      McpErrorCode.Unavailable,
      `agent "${agent.name}" uses MCP tools (${selectors.join(', ')}): build it with the graph's MCP hub ({ mcp: createGraphMcpHub(graph) }) after connectMcpServers`,
    );
  }
  try {
    return hub.select(selectors);
  } catch (error) {
    if (error instanceof McpAdapterError)
      throw new McpAdapterError(error.code as McpErrorCode, `agent "${agent.name}": ${error.message}`, { cause: error, data: error.data });
    throw error;
  }
}

/**
 * The agent's permission rules for the core: MCP keys written as selectors (`github.*`,
 * `github.create_issue`) become the exposed names of the matching tools (a named tool wins over
 * the server's `*`); other keys stay as written.
 */
export function permissionsWithMcp(rules: PermissionRules, hub: McpHub | undefined): PermissionRules {
  const out: PermissionRules = { mode: rules.mode };
  if (rules.tools === undefined) return out;
  const tools: NonNullable<PermissionRules['tools']> = {};
  const entries = Object.entries(rules.tools);
  const selectors = entries.filter(([key]) => parseToolSelector(key) !== undefined);
  // Whole servers first, so a rule for one of their tools overrides them.
  selectors.sort(([a], [b]) => Number(!a.endsWith('.*')) - Number(!b.endsWith('.*')));
  for (const [key, verdict] of selectors) {
    const selector = parseToolSelector(key);
    if (selector === undefined || hub === undefined || !hub.has(selector.server)) continue;
    for (const info of hub.client(selector.server).knownTools() ?? []) {
      if (selector.tool === '*' || selector.tool === info.name) tools[info.exposedName] = verdict;
    }
  }
  for (const [key, verdict] of entries) if (parseToolSelector(key) === undefined) tools[key] = verdict;
  out.tools = tools;
  return out;
}

/**
 * The agent's tools when it uses MCP servers: `fixed` plus its MCP tools as the hub lists them
 * now, so a server's `list_changed` reaches the agent at its next model call. Returns the same
 * array while the lists are unchanged; keeps the last good list if a selector stops matching.
 */
export function mcpToolSource(agent: AgentConfig, hub: McpHub | undefined, fixed: readonly Tool[]): ToolSource {
  let tools: readonly Tool[] = [...fixed, ...mcpToolsOf(agent, hub)];
  let key = keyOf(tools);
  return {
    current() {
      let next: readonly Tool[];
      try {
        next = [...fixed, ...mcpToolsOf(agent, hub)];
      } catch {
        return tools;
      }
      const nextKey = keyOf(next);
      if (nextKey !== key) {
        tools = next;
        key = nextKey;
      }
      return tools;
    },
  };
}

function keyOf(tools: readonly Tool[]): string {
  return tools.map((tool) => `${tool.name}\u0000${tool.description}\u0000${JSON.stringify(tool.parameters)}`).join('\u0001');
}

/** `tools` plus `extra`, as a fixed list or, when `tools` is a source, a source that follows it. */
export function withExtraTools(tools: readonly Tool[] | ToolSource | undefined, extra: readonly Tool[]): readonly Tool[] | ToolSource {
  if (tools === undefined) return extra;
  if (!isToolSource(tools)) return [...tools, ...extra];
  let base: readonly Tool[] | undefined;
  let combined: readonly Tool[] = extra;
  return {
    current() {
      const now = tools.current();
      if (now !== base) {
        base = now;
        combined = [...now, ...extra];
      }
      return combined;
    },
  };
}
