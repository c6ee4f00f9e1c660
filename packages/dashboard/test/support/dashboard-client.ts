/**
 * Test helpers: calls the dashboard's API as the page does (token header, same origin) and reads
 * its Server-Sent Events stream until a condition holds.
 */
import type { AgentEvent } from '@troupe/core';
import type { Dashboard } from '../../src/index.js';

/** An API answer: status and parsed JSON body. */
export interface Answer<T = Record<string, unknown>> {
  status: number;
  body: T;
}

/** Calls `path` on the dashboard with its token (or `token`, or none with `null`) and the page's origin. */
export async function api<T = Record<string, unknown>>(
  dashboard: Dashboard,
  method: 'GET' | 'POST',
  path: string,
  options: { body?: unknown; token?: string | null; origin?: string } = {},
): Promise<Answer<T>> {
  const headers: Record<string, string> = {};
  const token = options.token === undefined ? dashboard.token : options.token;
  if (token !== null) headers.authorization = `Bearer ${token}`;
  if (method === 'POST') {
    headers['content-type'] = 'application/json';
    headers.origin = options.origin ?? dashboard.origin;
  }
  const response = await fetch(`${dashboard.origin}${path}`, {
    method,
    headers,
    ...(options.body === undefined ? {} : { body: JSON.stringify(options.body) }),
  });
  return { status: response.status, body: (await response.json()) as T };
}

/** One event as the stream carries it. */
export interface StreamItem {
  id: string;
  seq: number;
  event: AgentEvent;
}

/**
 * Reads the run's event stream (after `lastEventId`, when given) until `until` holds for an item,
 * and returns every item read; the connection is closed then.
 */
export async function readStream(
  dashboard: Dashboard,
  runId: string,
  until: (item: StreamItem) => boolean,
  options: { lastEventId?: number } = {},
): Promise<StreamItem[]> {
  const controller = new AbortController();
  const headers: Record<string, string> = { authorization: `Bearer ${dashboard.token}`, accept: 'text/event-stream' };
  if (options.lastEventId !== undefined) headers['last-event-id'] = String(options.lastEventId);
  const response = await fetch(`${dashboard.origin}/api/runs/${encodeURIComponent(runId)}/events`, { headers, signal: controller.signal });
  if (response.status !== 200 || response.body === null) throw new Error(`event stream answered ${response.status}: ${await response.text()}`);
  const items: StreamItem[] = [];
  const decoder = new TextDecoder();
  let buffer = '';
  try {
    for await (const chunk of response.body as unknown as AsyncIterable<Uint8Array>) {
      buffer += decoder.decode(chunk, { stream: true });
      let end = buffer.indexOf('\n\n');
      while (end >= 0) {
        const frame = buffer.slice(0, end);
        buffer = buffer.slice(end + 2);
        end = buffer.indexOf('\n\n');
        const id = /^id: (.*)$/m.exec(frame)?.[1];
        const data = /^data: (.*)$/m.exec(frame)?.[1];
        if (id === undefined || data === undefined) continue;
        const { seq, event } = JSON.parse(data) as { seq: number; event: AgentEvent };
        const item = { id, seq, event };
        items.push(item);
        if (until(item)) return items;
      }
    }
  } finally {
    controller.abort();
  }
  throw new Error(`the stream ended after ${items.length} events without the awaited one`);
}
