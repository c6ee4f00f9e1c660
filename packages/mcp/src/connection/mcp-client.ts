import type { Tool, ToolResult } from '@troupe/core';
import type { McpServerConfig } from '../mcp-server-config.js';
import type { McpPrompt, McpPromptResult, McpResource, McpResourceContents, McpResourceTemplate, McpServerInfo, McpToolInfo } from '../mcp-types.js';
import type { McpCallOptions, McpClientState } from './mcp-client-options.js';

/**
 * One MCP server, connected on first use and reconnected after it fails.
 *
 * Contract: `callTool` never rejects for anything the server or the transport does: an
 * unreachable or crashed server, a timeout, a cancellation and an `isError` answer all come back
 * as error results naming the server. It honours `signal` by sending the server an MCP
 * cancellation. The list methods and `connect` reject with an `McpAdapterError` (`mcp_unavailable`,
 * `mcp_request_failed`, `mcp_closed`). After the server exits, the next use starts it again
 * (immediately after one failure, then with back-off). `notifications/tools/list_changed` makes
 * the next `listTools`/`tools` fetch a fresh list and calls the `onToolsChanged` listeners.
 * `close()` ends a stdio server (stdin closed, SIGTERM, then SIGKILL, each after a grace period,
 * to its whole process group) and makes every later use fail with `mcp_closed`.
 */
export interface McpClient {
  readonly name: string;
  readonly config: McpServerConfig;
  readonly state: McpClientState;
  /** The connected server, or `undefined` before the first connection. */
  info(): McpServerInfo | undefined;
  connect(): Promise<McpServerInfo>;
  /** Every tool, all pages; cached until the server says its list changed or reconnects. */
  listTools(): Promise<McpToolInfo[]>;
  /** The last fetched tool list, without connecting; `undefined` before the first. */
  knownTools(): McpToolInfo[] | undefined;
  /** Listed tools the adapter leaves out (unusable schema, name clash), with the reason. */
  skippedTools(): { name: string; reason: string }[];
  /** The server's tools as core tools, named with the prefix. */
  tools(): Promise<Tool[]>;
  /** The core tool of one listed tool (a fresh instance). */
  toolFor(info: McpToolInfo): Tool;
  /** Calls a tool by the server's name for it; see the contract. */
  callTool(name: string, args: Record<string, unknown>, options?: McpCallOptions): Promise<ToolResult>;
  listResources(): Promise<McpResource[]>;
  listResourceTemplates(): Promise<McpResourceTemplate[]>;
  readResource(uri: string): Promise<McpResourceContents[]>;
  listPrompts(): Promise<McpPrompt[]>;
  getPrompt(name: string, args?: Record<string, string>): Promise<McpPromptResult>;
  /** Called with the new list after the tool list changed; returns the unsubscribe function. */
  onToolsChanged(listener: (tools: McpToolInfo[]) => void): () => void;
  close(): Promise<void>;
}
