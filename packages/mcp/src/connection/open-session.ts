import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { SSEClientTransport } from '@modelcontextprotocol/sdk/client/sse.js';
import { StreamableHTTPClientTransport, StreamableHTTPError } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import { isStdioConfig, type McpHttpServerConfig, type McpServerConfig, type McpStdioServerConfig } from '../mcp-server-config.js';
import { messageOf } from '../mcp-errors.js';
import type { McpServerInfo, McpTransportKind } from '../mcp-types.js';
import { OrderedTransport } from './ordered-transport.js';
import type { ProcessTransport } from './process-transport.js';

/** A connected SDK client and what it runs on. */
export interface Session {
  client: Client;
  transport: Transport;
  /** Set for stdio servers. */
  process?: ProcessTransport;
  info: McpServerInfo;
}

/** What {@link openSession} needs besides the server's config. */
export interface OpenSessionOptions {
  server: string;
  /** A fresh client with its capabilities and handlers set, for each attempt. */
  newClient(): Client;
  connectTimeoutMs: number;
  graceMs: number;
  onStderrLine(line: string): void;
  /** Called when a streamable HTTP attempt failed and SSE is tried instead. */
  onFallback(error: unknown): void;
}

/**
 * Connects to a server and runs the initialize handshake: a stdio server is started as a child
 * process; an HTTP server is tried with streamable HTTP first and, when that attempt gets a 4xx
 * answer other than 401/403, with the legacy SSE transport (`type: sse` goes there directly).
 * Throws when no attempt succeeds, with every attempt's reason.
 */
export async function openSession(config: McpServerConfig, options: OpenSessionOptions): Promise<Session> {
  if (isStdioConfig(config)) return openStdio(config, options);
  if (config.type === 'sse') return connectWith(options, 'sse', sseTransport(config));
  try {
    return await connectWith(options, 'streamable-http', streamableTransport(config));
  } catch (error) {
    if (!worthSseFallback(error)) throw error;
    options.onFallback(error);
    try {
      return await connectWith(options, 'sse', sseTransport(config));
    } catch (sseError) {
      throw new Error(`streamable HTTP failed (${messageOf(error)}), and so did legacy SSE (${messageOf(sseError)})`, { cause: sseError });
    }
  }
}

async function openStdio(config: McpStdioServerConfig, options: OpenSessionOptions): Promise<Session> {
  // Loaded on demand: HTTP-only users of this package never load child_process.
  const { ProcessTransport } = await import('./process-transport.js');
  const transport = new ProcessTransport({
    command: config.command,
    args: config.args ?? [],
    env: config.env ?? {},
    ...(config.cwd === undefined ? {} : { cwd: config.cwd }),
    graceMs: options.graceMs,
    onStderrLine: options.onStderrLine,
  });
  let session: Session;
  try {
    session = await connectWith(options, 'stdio', transport);
  } catch (error) {
    const exit = transport.exit;
    if (exit === undefined || transport.pid === undefined) throw error;
    const how = exit.signal !== null ? `was killed by ${exit.signal}` : `exited with code ${exit.code ?? 'unknown'}`;
    const tail = transport.stderrTail().slice(-3).join(' | ');
    throw new Error(`the process ${how} during the handshake${tail === '' ? '' : `; stderr: ${tail}`}`, { cause: error });
  }
  session.process = transport;
  if (transport.pid !== undefined) session.info.pid = transport.pid;
  return session;
}

async function connectWith(options: OpenSessionOptions, kind: McpTransportKind, transport: Transport): Promise<Session> {
  const client = options.newClient();
  try {
    await client.connect(new OrderedTransport(transport), { timeout: options.connectTimeoutMs });
  } catch (error) {
    await client.close().catch(() => undefined);
    throw error;
  }
  const server = client.getServerVersion();
  const info: McpServerInfo = { transport: kind, serverName: server?.name ?? 'unknown', serverVersion: server?.version ?? 'unknown' };
  const instructions = client.getInstructions();
  if (instructions !== undefined) info.instructions = instructions;
  return { client, transport, info };
}

function headersOf(config: McpHttpServerConfig): Record<string, string> {
  const headers: Record<string, string> = { ...config.headers };
  if (config.bearerToken !== undefined) headers['Authorization'] = `Bearer ${config.bearerToken}`;
  return headers;
}

function streamableTransport(config: McpHttpServerConfig): Transport {
  return new StreamableHTTPClientTransport(new URL(config.url), { requestInit: { headers: headersOf(config) } });
}

function sseTransport(config: McpHttpServerConfig): Transport {
  return new SSEClientTransport(new URL(config.url), { requestInit: { headers: headersOf(config) } });
}

/** A 4xx answer to the streamable attempt means an old server; 401/403 mean credentials, the same for both. */
function worthSseFallback(error: unknown): boolean {
  if (!(error instanceof StreamableHTTPError) || error.code === undefined) return false;
  return error.code >= 400 && error.code < 500 && error.code !== 401 && error.code !== 403;
}
