import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, request, STATUS_CODES, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { connect, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Duplex } from 'node:stream';
import { hostAllowed } from '../../network-allow-list.js';

/** Response header with the proxy's reason for a refusal, which the bridge in the sandbox writes to standard error. */
export const REFUSAL_HEADER = 'x-troupe-sandbox';

/** A running filtering proxy: where sandboxes reach it. */
export interface NetworkProxy {
  /** Its Unix socket: bound into a sandbox, the only way out of its network namespace. */
  readonly socket: string;
}

const proxies = new Map<string, NetworkProxy>();

/**
 * The HTTP proxy that lets sandboxed processes reach the hosts of `allow` and nothing else: one
 * per allow-list and process, started on first use, on a Unix socket in a private directory,
 * never keeping the process alive and removed when it exits. It tunnels `CONNECT host:port`
 * (HTTPS and any TCP a client tunnels) and forwards plain `http://` requests; the name is
 * checked here, outside the sandbox, and resolved here too, so a sandbox needs no DNS.
 *
 * Synchronous on purpose: Node binds and listens on a Unix socket before `listen` returns (only
 * the `listening` event is deferred), so the socket accepts connections as soon as this returns.
 */
export function networkProxyFor(allow: readonly string[]): NetworkProxy {
  const key = [...allow].sort().join('\n');
  const running = proxies.get(key);
  if (running !== undefined) return running;
  const dir = mkdtempSync(join(tmpdir(), 'troupe-net-'));
  const socket = join(dir, 'proxy.sock');
  const server = filteringProxy(allow);
  server.listen(socket);
  server.unref();
  process.once('exit', () => rmSync(dir, { recursive: true, force: true }));
  const proxy: NetworkProxy = { socket };
  proxies.set(key, proxy);
  return proxy;
}

function filteringProxy(allow: readonly string[]): Server {
  const server = createServer((req, res) => forward(allow, req, res));
  server.on('connect', (req: IncomingMessage, client: Duplex, head: Buffer) => tunnel(allow, req, client, head));
  // A client that drops its connection mid-request is its own business, not the process's.
  server.on('clientError', (_error, socket: Duplex) => socket.destroy());
  return server;
}

/** `CONNECT host:port`: a byte tunnel to an allowed host. */
function tunnel(allow: readonly string[], req: IncomingMessage, client: Duplex, head: Buffer): void {
  client.on('error', () => client.destroy());
  const target = parseTarget(`http://${req.url ?? ''}`);
  if (target === undefined) {
    refuse(client, 400, `the sandbox's proxy: not a host:port: ${req.url ?? ''}`);
    return;
  }
  if (!hostAllowed(allow, target.host, target.port)) {
    refuse(client, 403, deniedReason(target));
    return;
  }
  let connected = false;
  const upstream: Socket = connect(target.port, target.host, () => {
    connected = true;
    client.write('HTTP/1.1 200 Connection Established\r\n\r\n');
    if (head.length > 0) upstream.write(head);
    upstream.pipe(client);
    client.pipe(upstream);
  });
  upstream.on('error', (error) => {
    if (!connected) refuse(client, 502, unreachable(target, error));
    else client.destroy();
  });
  client.on('close', () => upstream.destroy());
}

/** `GET http://host/path`: the request forwarded to an allowed host. */
function forward(allow: readonly string[], req: IncomingMessage, res: ServerResponse): void {
  const target = parseTarget(req.url ?? '');
  if (target === undefined || !(req.url ?? '').startsWith('http://')) {
    answer(res, 400, "the sandbox's proxy forwards http:// URLs only (https goes through CONNECT)");
    return;
  }
  if (!hostAllowed(allow, target.host, target.port)) {
    answer(res, 403, deniedReason(target));
    return;
  }
  const url = new URL(req.url ?? '');
  const headers = Object.fromEntries(Object.entries(req.headers).filter(([name]) => !name.startsWith('proxy-')));
  const outgoing = request({ host: target.host, port: target.port, method: req.method, path: `${url.pathname}${url.search}`, headers }, (upstream) => {
    res.writeHead(upstream.statusCode ?? 502, upstream.headers);
    upstream.pipe(res);
  });
  outgoing.on('error', (error) => {
    if (!res.headersSent) answer(res, 502, unreachable(target, error));
    else res.destroy();
  });
  req.pipe(outgoing);
}

function parseTarget(url: string): { host: string; port: number } | undefined {
  try {
    const parsed = new URL(url);
    if (parsed.hostname === '') return undefined;
    const port = parsed.port === '' ? (parsed.protocol === 'https:' ? 443 : 80) : Number(parsed.port);
    return { host: parsed.hostname.replace(/^\[|\]$/g, ''), port };
  } catch {
    return undefined;
  }
}

function deniedReason(target: { host: string; port: number }): string {
  return `permission denied by the sandbox: network access to ${target.host}:${target.port} (not in sandbox.network.allow)`;
}

function unreachable(target: { host: string; port: number }, error: Error): string {
  return `the sandbox's proxy could not reach ${target.host}:${target.port}: ${error.message}`;
}

/** Ends a CONNECT with an HTTP error whose header (and, for plain requests, body) is `message`. */
function refuse(client: Duplex, status: number, message: string): void {
  client.end(`HTTP/1.1 ${status} ${STATUS_CODES[status] ?? ''}\r\n${REFUSAL_HEADER}: ${message}\r\nContent-Length: 0\r\n\r\n`);
}

function answer(res: ServerResponse, status: number, message: string): void {
  res.writeHead(status, { 'content-type': 'text/plain', [REFUSAL_HEADER]: message });
  res.end(`${message}\n`);
}
