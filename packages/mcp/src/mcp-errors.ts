import { TroupeError } from '@troupe/core';

/** Stable error codes of the MCP adapter. */
export const McpErrorCode = {
  /** The server could not be started or reached, crashed, or is waiting out its reconnect back-off. */
  Unavailable: 'mcp_unavailable',
  /** A name that is not one of the configured servers. */
  UnknownServer: 'mcp_unknown_server',
  /** A tool selector (`server.*`, `server.tool`) that matches nothing or is malformed. */
  BadSelector: 'mcp_bad_selector',
  /** The server answered a request with an error (resources, prompts, listing). */
  RequestFailed: 'mcp_request_failed',
  /** The client was closed. */
  Closed: 'mcp_closed',
} as const;

/** One of the {@link McpErrorCode} values. */
export type McpErrorCode = (typeof McpErrorCode)[keyof typeof McpErrorCode];

/** An error of the MCP adapter; `server` names the server it concerns, when one does. */
export class McpAdapterError extends TroupeError {
  readonly server: string | undefined;

  constructor(code: McpErrorCode, message: string, options: { server?: string; cause?: unknown; data?: unknown } = {}) {
    super(code, message, { cause: options.cause, data: options.data ?? (options.server === undefined ? undefined : { server: options.server }) });
    this.server = options.server;
  }
}

/** The message of anything thrown. */
export function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
