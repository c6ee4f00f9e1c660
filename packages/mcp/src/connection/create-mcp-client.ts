import type { McpServerConfig } from '../mcp-server-config.js';
import type { McpClient } from './mcp-client.js';
import type { McpClientOptions } from './mcp-client-options.js';
import { ServerConnection } from './server-connection.js';

/** A client for the server `name` configured by `config` (nothing starts until it is used). */
export function createMcpClient(name: string, config: McpServerConfig, options: McpClientOptions = {}): McpClient {
  return new ServerConnection(name, config, options);
}
