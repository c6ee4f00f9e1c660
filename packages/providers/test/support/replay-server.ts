import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/** One server-sent event: `data` objects are written as JSON. */
export interface SseFrame {
  event?: string;
  data: unknown;
}

/** What the server answers to one request. */
export interface ReplayResponse {
  /** Default 200. */
  status?: number;
  headers?: Record<string, string>;
  /** Server-sent events, written one write per event (so the client reads them as separate chunks). */
  events?: readonly SseFrame[];
  /** A JSON body (objects) or text body instead of events. */
  body?: unknown;
  /** After the events: destroy the socket without ending the response (a dropped connection). */
  drop?: boolean;
  /** After the events: keep the response open until the client goes away. */
  hold?: boolean;
  /** Line ending of SSE frames. Default `\n`. */
  lineEnding?: '\n' | '\r\n';
}

/** A request the server received. */
export interface RecordedRequest {
  method: string;
  url: string;
  headers: IncomingMessage['headers'];
  /** The body parsed as JSON (`undefined` when it is not JSON). */
  body: unknown;
}

function frame(f: SseFrame, eol: string): string {
  const data = typeof f.data === 'string' ? f.data : JSON.stringify(f.data);
  return `${f.event === undefined ? '' : `event: ${f.event}${eol}`}data: ${data}${eol}${eol}`;
}

/**
 * A local HTTP server on 127.0.0.1 (random port) that replays vendor wire formats: each request
 * gets the next queued response. It records requests and tells when a client's connection
 * closed, so tests can prove an abort reached the socket. No timers: everything is driven by the
 * client's requests.
 */
export class ReplayServer {
  readonly requests: RecordedRequest[] = [];
  readonly #queue: ReplayResponse[] = [];
  readonly #closed: Promise<void>[] = [];
  readonly #server: Server;
  #url = '';

  private constructor() {
    this.#server = createServer((req, res) => void this.#handle(req, res));
  }

  /** Starts a server on a free loopback port. */
  static async start(): Promise<ReplayServer> {
    const server = new ReplayServer();
    await new Promise<void>((resolve) => server.#server.listen(0, '127.0.0.1', resolve));
    const { port } = server.#server.address() as AddressInfo;
    server.#url = `http://127.0.0.1:${port}`;
    return server;
  }

  /** `http://127.0.0.1:PORT` */
  get url(): string {
    return this.#url;
  }

  /** Queues responses for the next requests, in order. */
  enqueue(...responses: ReplayResponse[]): void {
    this.#queue.push(...responses);
  }

  /** Resolves once the connection of the `n`th request (0-based) has closed. */
  connectionClosed(n: number): Promise<void> {
    const closed = this.#closed[n];
    if (closed === undefined) throw new Error(`no request ${n} yet`);
    return closed;
  }

  /** Forgets queued responses and recorded requests. */
  reset(): void {
    this.#queue.length = 0;
    this.requests.length = 0;
    this.#closed.length = 0;
  }

  /** Stops the server and every open connection. */
  async close(): Promise<void> {
    this.#server.closeAllConnections();
    await new Promise<void>((resolve) => this.#server.close(() => resolve()));
  }

  async #handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    this.#closed.push(new Promise<void>((resolve) => res.on('close', () => resolve())));
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const text = Buffer.concat(chunks).toString('utf8');
    let body: unknown;
    try {
      body = JSON.parse(text);
    } catch {
      body = undefined;
    }
    this.requests.push({ method: req.method ?? '', url: req.url ?? '', headers: req.headers, body });
    const response = this.#queue.shift();
    if (response === undefined) {
      res.writeHead(500, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ error: { message: 'replay server: no response queued', type: 'test_error' } }));
      return;
    }
    const status = response.status ?? 200;
    if (response.events === undefined) {
      const isText = typeof response.body === 'string';
      res.writeHead(status, { 'content-type': isText ? 'text/plain' : 'application/json', ...response.headers });
      res.end(isText ? (response.body as string) : JSON.stringify(response.body ?? {}));
      return;
    }
    res.writeHead(status, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache', ...response.headers });
    const eol = response.lineEnding ?? '\n';
    for (const f of response.events) {
      if (res.destroyed) return;
      await new Promise<void>((resolve) => res.write(frame(f, eol), () => resolve()));
    }
    if (response.drop === true) {
      res.socket?.destroy();
      return;
    }
    if (response.hold === true) return;
    res.end();
  }
}
