import type { McpLogger } from '../mcp-logger.js';
import type { McpElicitation, McpElicitationAnswer } from '../mcp-types.js';
import type { ReconnectOptions } from './reconnect-policy.js';

/** Options of {@link createMcpClient} (and of every client of a hub). */
export interface McpClientOptions {
  /** Default: silent. */
  logger?: McpLogger;
  /** How this client introduces itself to servers. Default `{ name: 'troupe', version: '0.1.0' }`. */
  clientInfo?: { name: string; version: string };
  /** A tool call's timeout when the server's config sets none (reset by progress). Default 60000. */
  timeoutMs?: number;
  /** How long starting a server and the initialize handshake may take. Default 30000. */
  connectTimeoutMs?: number;
  /** stdio servers: the wait after closing stdin before SIGTERM, and again before SIGKILL. Default 2000. */
  closeGraceMs?: number;
  /** Back-off of reconnection attempts after failures. */
  reconnect?: ReconnectOptions;
  /** The clock for back-off, in epoch milliseconds. Default `Date.now`. */
  now?: () => number;
  /** Absolute directories offered to servers as roots (`roots/list`). Default: none, and no roots capability. */
  roots?: readonly string[];
  /** Answers servers' elicitation requests (forms for the user). Default: none, and no elicitation capability. */
  elicit?: (request: McpElicitation) => Promise<McpElicitationAnswer>;
}

/** A progress notification of a running call. */
export interface McpProgress {
  progress: number;
  total?: number;
  message?: string;
}

/** Options of one tool call. */
export interface McpCallOptions {
  /** Aborting sends the server an MCP cancellation and ends the call with an error result. */
  signal?: AbortSignal;
  /** Overrides the server's timeout for this call. */
  timeoutMs?: number;
  onProgress?: (progress: McpProgress) => void;
}

/** Where a client is in its life. `down`: its server exited or could not be reached; the next use reconnects. */
export type McpClientState = 'idle' | 'connecting' | 'connected' | 'down' | 'closed';
