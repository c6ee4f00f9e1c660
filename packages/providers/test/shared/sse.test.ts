/**
 * Proves the SSE reader follows the framing rules: events split across chunks, several in one
 * chunk, `\r\n` line ends, named events, multi-line data, comments ignored, and an incomplete
 * event at the end dropped.
 */
import { describe, expect, it } from 'vitest';
import { sseEvents, type SseEvent } from '../../src/shared/sse.js';

function body(chunks: string[]): ReadableStream<Uint8Array> {
  const encoder = new TextEncoder();
  return new ReadableStream({
    start(controller) {
      for (const chunk of chunks) controller.enqueue(encoder.encode(chunk));
      controller.close();
    },
  });
}

async function read(chunks: string[]): Promise<SseEvent[]> {
  const out: SseEvent[] = [];
  for await (const event of sseEvents(body(chunks))) out.push(event);
  return out;
}

describe('sseEvents', () => {
  it('reads events across and within chunks', async () => {
    expect(await read(['data: {"a"', ':1}\n\ndata: 2\n', '\ndata: 3\n\n'])).toEqual([{ data: '{"a":1}' }, { data: '2' }, { data: '3' }]);
  });

  it('reads CRLF, names, multi-line data and skips comments', async () => {
    expect(await read([': ping\r\n\r\nevent: message_stop\r\ndata: a\r\ndata: b\r\n\r\n'])).toEqual([{ event: 'message_stop', data: 'a\nb' }]);
  });

  it('drops an incomplete final event', async () => {
    expect(await read(['data: 1\n\ndata: 2'])).toEqual([{ data: '1' }]);
  });
});
