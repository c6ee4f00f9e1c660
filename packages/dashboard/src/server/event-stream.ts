import type { IncomingMessage, ServerResponse } from 'node:http';
import type { FeedEvent, RunFeed } from '../run-feed.js';
import { redactSecrets } from '../redact.js';

/** How often a comment line keeps an idle stream open through proxies. */
const KEEP_ALIVE_MS = 15_000;

/**
 * Streams a run's feed as Server-Sent Events: each event as `id: <seq>` (its index in the run's
 * log) and `data: {"seq":…,"event":{…}}`, secrets redacted. A client that reconnects sends the
 * last id it got (`Last-Event-ID`, or `?after=` for a first connection that already holds some)
 * and gets only what follows it.
 */
export function streamFeed(request: IncomingMessage, response: ServerResponse, feed: RunFeed, after: number): void {
  response.writeHead(200, {
    'content-type': 'text/event-stream; charset=utf-8',
    'cache-control': 'no-store',
    connection: 'keep-alive',
    'x-accel-buffering': 'no',
  });
  // Reconnect soon after a drop; the id makes it lossless.
  response.write('retry: 1000\n\n');
  const send = ({ seq, event }: FeedEvent): void => {
    response.write(`id: ${seq}\nevent: agent\ndata: ${JSON.stringify({ seq, event: redactSecrets(event) })}\n\n`);
  };
  const stop = feed.follow(after, send);
  const keepAlive = setInterval(() => response.write(': keep-alive\n\n'), KEEP_ALIVE_MS);
  const end = (): void => {
    clearInterval(keepAlive);
    stop();
  };
  request.on('close', end);
  response.on('close', end);
}

/** The last seq the client has: `Last-Event-ID`, else `?after=`, else -1 (none). */
export function lastSeqOf(request: IncomingMessage, url: URL): number {
  const header = request.headers['last-event-id'];
  const raw = typeof header === 'string' && header !== '' ? header : url.searchParams.get('after');
  const seq = raw === null ? Number.NaN : Number(raw);
  return Number.isInteger(seq) && seq >= -1 ? seq : -1;
}
