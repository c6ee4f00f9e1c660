import { randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { parseAgentPath, parseRunId, toErrorInfo, type AgentPath, type RunId } from '@troupe/core';
import type { Logger } from '@troupe/runtime';
import { DashboardError, DashboardErrorCode, httpStatusOf } from '../dashboard-error.js';
import { redactSecrets } from '../redact.js';
import type { RunSource } from '../sources/run-source.js';
import { assertSameOrigin, assertToken, sameToken, TOKEN_COOKIE } from './access.js';
import { lastSeqOf, streamFeed } from './event-stream.js';
import { parseAction } from './parse-action.js';
import { serveStatic, UI_DIR } from './static-files.js';

/** Options of {@link startDashboard}. */
export interface DashboardOptions {
  source: RunSource;
  /** Default `127.0.0.1`. */
  host?: string;
  /** Default 4848; 0 picks a free port. */
  port?: number;
  /** The token every API request must carry. Default: a new random one (printed in the URL). */
  token?: string;
  logger: Logger;
  /** Where the built page is. Default: this package's `dist/ui`. */
  uiDir?: string;
}

/** A listening dashboard. */
export interface Dashboard {
  /** The page's address with its token (`http://127.0.0.1:4848/?token=…`): open it once, the page keeps the token in a cookie. */
  readonly url: string;
  /** The address without the token. */
  readonly origin: string;
  readonly token: string;
  /** Stops listening, ends open event streams, then closes the source (its hosted runs are aborted). */
  close(): Promise<void>;
}

/** The largest action body read: an answer or a steering message, not a file. */
const MAX_BODY = 1 << 20;

/**
 * Serves the dashboard: the built page, and its API under `/api` (runs, one run with what it waits
 * for, its events as Server-Sent Events, an actor's messages, the graph, workers; POSTs that start
 * a run and act on one). Every API request needs the token; POSTs must also come from the page's
 * own origin. Errors are `{ error: { code, message } }` with a 4xx for what the request got
 * wrong (unknown run, stale approval, missing token) and nothing changed.
 */
export async function startDashboard(options: DashboardOptions): Promise<Dashboard> {
  const { source, logger } = options;
  const token = options.token ?? randomBytes(18).toString('base64url');
  const uiDir = options.uiDir ?? UI_DIR;
  const streams = new Set<ServerResponse>();

  const handle = async (request: IncomingMessage, response: ServerResponse): Promise<void> => {
    const url = new URL(request.url ?? '/', 'http://dashboard');
    if (!url.pathname.startsWith('/api/')) return page(request, response, url);
    assertToken(request, token);
    if (request.method === 'POST') assertSameOrigin(request);
    const route = `${request.method ?? 'GET'} ${url.pathname}`;
    if (route === 'GET /api/info') return json(response, { kind: source.kind, where: source.where, graph: (await source.graph()) ?? null });
    if (route === 'GET /api/runs') return json(response, { runs: await source.listRuns() });
    if (route === 'POST /api/runs') {
      const body = (await readJson(request)) as { input?: unknown };
      if (typeof body.input !== 'string' || body.input.trim() === '') throw new DashboardError(DashboardErrorCode.BadRequest, 'a run needs a non-empty input');
      return json(response, { runId: await source.start(body.input) }, 201);
    }
    if (route === 'GET /api/workers') return json(response, { workers: await source.workers() });
    const [, rawId, part = ''] = /^\/api\/runs\/([^/]+)(\/[a-z]+)?$/.exec(url.pathname) ?? [];
    if (rawId !== undefined) {
      const id = runIdOf(rawId);
      const what = `${request.method ?? 'GET'} ${part}`;
      if (what === 'GET ') return json(response, await source.detail(id));
      if (what === 'GET /messages') {
        const path = url.searchParams.get('path');
        if (path === null) throw new DashboardError(DashboardErrorCode.BadRequest, 'say whose messages: ?path=<actor path>');
        return json(response, { messages: await source.messages(id, pathOf(path)) });
      }
      if (what === 'GET /events') {
        const feed = await source.feed(id);
        streams.add(response);
        response.on('close', () => streams.delete(response));
        return streamFeed(request, response, feed, lastSeqOf(request, url));
      }
      if (what === 'POST /actions') {
        const action = parseAction(await readJson(request));
        await source.act(id, action);
        return json(response, { ok: true });
      }
    }
    throw new DashboardError(DashboardErrorCode.NotFound, `no ${route}`);
  };

  const page = async (request: IncomingMessage, response: ServerResponse, url: URL): Promise<void> => {
    if (request.method !== 'GET' && request.method !== 'HEAD') throw new DashboardError(DashboardErrorCode.NotFound, `no ${request.method} ${url.pathname}`);
    const given = url.searchParams.get('token');
    if (given !== null) {
      if (!sameToken(given, token)) throw new DashboardError(DashboardErrorCode.Unauthorized, 'wrong token');
      // Kept in a cookie only this origin's requests carry, and out of the address bar and history.
      url.searchParams.delete('token');
      response.writeHead(303, {
        location: `${url.pathname}${url.search}`,
        'set-cookie': `${TOKEN_COOKIE}=${encodeURIComponent(token)}; Path=/; HttpOnly; SameSite=Strict`,
      });
      response.end();
      return;
    }
    if (!(await serveStatic(url.pathname, response, uiDir)))
      throw new DashboardError(DashboardErrorCode.NotFound, `no page at ${url.pathname} (is the dashboard built?)`);
  };

  const server: Server = createServer((request, response) => {
    handle(request, response).catch((error: unknown) => {
      const status = httpStatusOf(error);
      if (status >= 500) logger.error({ err: error, url: request.url }, 'dashboard request failed');
      if (response.headersSent) return void response.end();
      json(response, { error: toErrorInfo(error) }, status);
    });
  });
  const host = options.host ?? '127.0.0.1';
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 4848, host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  const { port } = server.address() as AddressInfo;
  const origin = `http://${host.includes(':') ? `[${host}]` : host}:${port}`;
  let closing: Promise<void> | undefined;
  return {
    url: `${origin}/?token=${encodeURIComponent(token)}`,
    origin,
    token,
    close: () =>
      (closing ??= (async () => {
        const closed = new Promise<void>((resolve) => server.close(() => resolve()));
        for (const stream of streams) stream.end();
        server.closeAllConnections();
        await closed;
        await source.close();
      })()),
  };
}

function runIdOf(raw: string | undefined): RunId {
  try {
    return parseRunId(decodeURIComponent(raw ?? ''));
  } catch {
    throw new DashboardError(DashboardErrorCode.UnknownRun, `no run ${JSON.stringify(raw)}`);
  }
}

function pathOf(raw: string): AgentPath {
  try {
    return parseAgentPath(raw);
  } catch (error) {
    throw new DashboardError(DashboardErrorCode.BadRequest, error instanceof Error ? error.message : String(error));
  }
}

function json(response: ServerResponse, body: unknown, status = 200): void {
  const text = JSON.stringify(redactSecrets(body));
  response.writeHead(status, { 'content-type': 'application/json; charset=utf-8', 'cache-control': 'no-store' });
  response.end(text);
}

async function readJson(request: IncomingMessage): Promise<unknown> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of request as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > MAX_BODY) throw new DashboardError(DashboardErrorCode.BadRequest, 'the body is too large');
    chunks.push(chunk);
  }
  try {
    return JSON.parse(Buffer.concat(chunks).toString('utf8')) as unknown;
  } catch {
    throw new DashboardError(DashboardErrorCode.BadRequest, 'the body is not valid JSON');
  }
}
