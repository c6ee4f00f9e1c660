export { createMcpClient } from './connection/create-mcp-client.js';
export { createMcpHub } from './hub/mcp-hub.js';
export { parseToolSelector } from './hub/tool-selector.js';
export { McpAdapterError, McpErrorCode } from './mcp-errors.js';
export { silentMcpLogger } from './mcp-logger.js';
export { isStdioConfig, MCP_SERVER_NAME } from './mcp-server-config.js';
export { defaultToolPrefix, exposedToolName } from './tools/tool-naming.js';

export type { McpClient } from './connection/mcp-client.js';
export type { McpCallOptions, McpClientOptions, McpClientState, McpProgress } from './connection/mcp-client-options.js';
export type { ReconnectOptions } from './connection/reconnect-policy.js';
export type { McpConnectReport, McpHub } from './hub/mcp-hub.js';
export type { ToolSelector } from './hub/tool-selector.js';
export type { McpLogger } from './mcp-logger.js';
export type { McpCommonConfig, McpHttpServerConfig, McpServerConfig, McpStdioServerConfig } from './mcp-server-config.js';
export type {
  McpElicitation,
  McpElicitationAnswer,
  McpPrompt,
  McpPromptResult,
  McpResource,
  McpResourceContents,
  McpResourceTemplate,
  McpServerInfo,
  McpToolInfo,
  McpTransportKind,
} from './mcp-types.js';
