/** One server-sent event: its `event:` name (if any) and its `data:` lines joined by newlines. */
export interface SseEvent {
  event?: string;
  data: string;
}

function parseEvent(block: string): SseEvent | undefined {
  let event: string | undefined;
  const data: string[] = [];
  for (const line of block.split('\n')) {
    if (line === '' || line.startsWith(':')) continue;
    const colon = line.indexOf(':');
    const field = colon === -1 ? line : line.slice(0, colon);
    let value = colon === -1 ? '' : line.slice(colon + 1);
    if (value.startsWith(' ')) value = value.slice(1);
    if (field === 'data') data.push(value);
    else if (field === 'event') event = value;
  }
  if (data.length === 0) return undefined;
  return event === undefined ? { data: data.join('\n') } : { event, data: data.join('\n') };
}

/**
 * Reads a `text/event-stream` body event by event (the SSE framing of the HTML spec: blank-line
 * separated blocks, `\r\n` or `\n` line ends, comments ignored). An incomplete event at the end is
 * dropped, as the spec says. A connection that breaks mid-stream rejects with the fetch error.
 * Stopping early cancels the body, which closes the connection.
 */
export async function* sseEvents(body: ReadableStream<Uint8Array>): AsyncGenerator<SseEvent> {
  const reader = body.getReader();
  const decoder = new TextDecoder();
  let buffer = '';
  let finished = false;
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      buffer += decoder.decode(value, { stream: true }).replace(/\r\n?/g, '\n');
      let boundary = buffer.indexOf('\n\n');
      while (boundary !== -1) {
        const event = parseEvent(buffer.slice(0, boundary));
        buffer = buffer.slice(boundary + 2);
        if (event !== undefined) yield event;
        boundary = buffer.indexOf('\n\n');
      }
    }
    finished = true;
  } finally {
    if (!finished) await reader.cancel().catch(() => undefined);
    reader.releaseLock();
  }
}
