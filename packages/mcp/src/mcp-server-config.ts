/** What every server definition may add to how it is reached. */
export interface McpCommonConfig {
  /**
   * Put before each tool name to make the name the model sees. Default `<server>__`, so the
   * server `github`'s tool `create_issue` becomes `github__create_issue`; `""` keeps bare names.
   */
  toolPrefix?: string;
  /** How long a tool call may go without a result or a progress notification. Default 60000. */
  timeoutMs?: number;
  /**
   * Whether the server's tool annotations are believed: with `true`, a tool annotated
   * `readOnlyHint` counts as read-only (the `smart` permission mode then runs it without asking).
   * Default false, since annotations come from the server and MCP says to distrust them.
   */
  trustAnnotations?: boolean;
}

/** A server started as a child process and spoken to over its stdin and stdout (`.mcp.json` shape). */
export interface McpStdioServerConfig extends McpCommonConfig {
  type?: 'stdio';
  command: string;
  args?: string[];
  /** Added to a minimal inherited environment (HOME, PATH, SHELL, TERM, USER, LOGNAME). */
  env?: Record<string, string>;
  /** The server's working directory. Default: this process's. */
  cwd?: string;
}

/**
 * A server reached over HTTP: streamable HTTP, falling back to the legacy HTTP+SSE transport when
 * the server answers the streamable attempt with a 4xx status (`type: sse` goes to SSE directly).
 */
export interface McpHttpServerConfig extends McpCommonConfig {
  type?: 'http' | 'sse';
  url: string;
  /** Sent with every request. */
  headers?: Record<string, string>;
  /** Sent as `Authorization: Bearer <token>`. */
  bearerToken?: string;
}

/** One entry of `mcpServers`, in the shape of the common `.mcp.json` files. Plain JSON. */
export type McpServerConfig = McpStdioServerConfig | McpHttpServerConfig;

/** Whether a server definition starts a process. */
export function isStdioConfig(config: McpServerConfig): config is McpStdioServerConfig {
  return 'command' in config;
}

/** Server names: they prefix tool names and are followed by `.` in selectors, so no dots. */
export const MCP_SERVER_NAME = /^[A-Za-z0-9_-]+$/;
