import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import {
  ElicitRequestSchema,
  ErrorCode,
  McpError,
  ListRootsRequestSchema,
  LoggingMessageNotificationSchema,
  ToolListChangedNotificationSchema,
  type ClientCapabilities,
} from '@modelcontextprotocol/sdk/types.js';
import type { McpLogger } from '../mcp-logger.js';
import type { McpElicitation, McpElicitationAnswer } from '../mcp-types.js';

/** What a new SDK client reports back to its connection. */
export interface SdkClientHooks {
  server: string;
  clientInfo: { name: string; version: string };
  logger: McpLogger;
  roots?: readonly string[];
  elicit?: (request: McpElicitation) => Promise<McpElicitationAnswer>;
  onToolListChanged(client: Client): void;
}

const LOG_LEVELS: Readonly<Record<string, keyof McpLogger>> = {
  debug: 'debug',
  info: 'info',
  notice: 'info',
  warning: 'warn',
  error: 'error',
  critical: 'error',
  alert: 'error',
  emergency: 'error',
};

/**
 * A fresh SDK client with the capabilities this adapter offers and their handlers: tool list
 * changes go to the connection, server log messages to the logger, `roots/list` answers with the
 * configured roots, and elicitation requests go to the `elicit` callback (each capability only
 * when configured).
 */
export function newSdkClient(hooks: SdkClientHooks): Client {
  const capabilities: ClientCapabilities = {};
  if (hooks.roots !== undefined) capabilities.roots = { listChanged: false };
  if (hooks.elicit !== undefined) capabilities.elicitation = { form: { applyDefaults: true } };
  const client = new Client(hooks.clientInfo, { capabilities });
  client.setNotificationHandler(ToolListChangedNotificationSchema, () => hooks.onToolListChanged(client));
  client.setNotificationHandler(LoggingMessageNotificationSchema, (notification) => {
    const level = LOG_LEVELS[notification.params.level] ?? 'info';
    const data = notification.params.data;
    hooks.logger[level]({ server: hooks.server, logger: notification.params.logger, data }, typeof data === 'string' ? data : 'MCP server log message');
  });
  const roots = hooks.roots;
  if (roots !== undefined) {
    client.setRequestHandler(ListRootsRequestSchema, () => ({
      roots: roots.map((dir) => ({ uri: fileUri(dir), name: dir.split('/').filter(Boolean).at(-1) ?? '/' })),
    }));
  }
  const elicit = hooks.elicit;
  if (elicit !== undefined) {
    client.setRequestHandler(ElicitRequestSchema, async (request) => {
      const params = request.params;
      const schema = 'requestedSchema' in params ? (params.requestedSchema as Record<string, unknown>) : {};
      const answer = await elicit({ server: hooks.server, message: params.message, schema });
      return answer.content === undefined ? { action: answer.action } : { action: answer.action, content: answer.content };
    });
  }
  return client;
}

/** `file://` URI of an absolute POSIX path, each segment percent-encoded. */
function fileUri(path: string): string {
  return `file://${path.split('/').map(encodeURIComponent).join('/')}`;
}

/** Whether `error` is the SDK's timeout of a request (no result or progress within its timeout). */
export function isRequestTimeout(error: unknown): boolean {
  return error instanceof McpError && error.code === ErrorCode.RequestTimeout;
}
