import type { SseFrame } from '../support/replay-server.js';
import { field, items, type VendorWire, type WireCall, type WireUsage } from './vendor-wire.js';

/*
 * Anthropic Messages streaming: `message_start` (the message with empty content and the input
 * usage), then per content block `content_block_start` / `content_block_delta` (`text_delta`,
 * `input_json_delta`, `thinking_delta`, `signature_delta`) / `content_block_stop`, `ping`s,
 * `message_delta` (stop reason, cumulative output usage) and `message_stop`. Every event is a
 * named SSE event whose data repeats the name in `type`.
 */

function ev(data: Record<string, unknown>): SseFrame {
  return { event: data['type'] as string, data };
}

function start(usage: WireUsage | undefined): SseFrame[] {
  const u = usage ?? { input: 12, cached: 0, output: 0 };
  return [
    ev({
      type: 'message_start',
      message: {
        id: 'msg_1',
        type: 'message',
        role: 'assistant',
        content: [],
        model: 'replay',
        stop_reason: null,
        stop_sequence: null,
        usage: {
          input_tokens: u.input - u.cached - (u.cacheWrite ?? 0),
          cache_read_input_tokens: u.cached,
          cache_creation_input_tokens: u.cacheWrite ?? 0,
          output_tokens: 1,
        },
      },
    }),
    ev({ type: 'ping' }),
  ];
}

function textBlock(index: number, chunks: readonly string[]): SseFrame[] {
  return [
    ev({ type: 'content_block_start', index, content_block: { type: 'text', text: '' } }),
    ...chunks.map((text) => ev({ type: 'content_block_delta', index, delta: { type: 'text_delta', text } })),
    ev({ type: 'content_block_stop', index }),
  ];
}

function end(stopReason: string, usage: WireUsage): SseFrame[] {
  return [
    ev({ type: 'message_delta', delta: { stop_reason: stopReason, stop_sequence: null }, usage: { output_tokens: usage.output } }),
    ev({ type: 'message_stop' }),
  ];
}

function blocks(body: unknown, role: string): unknown[] {
  return items(field(body, 'messages')).filter((m) => field(m, 'role') === role);
}

function textOfContent(content: unknown): string {
  return typeof content === 'string'
    ? content
    : items(content)
        .map((b) => (field(b, 'type') === 'text' ? (field(b, 'text') as string) : ''))
        .join('');
}

/** The Anthropic Messages wire. */
export function anthropicWire(): VendorWire {
  return {
    label: 'Anthropic Messages',
    streamsArguments: true,
    reportsReasoning: false,
    text: (chunks, usage) => [...start(usage), ...textBlock(0, chunks), ...end('end_turn', usage)],
    refusal: (chunks, usage) => [...start(usage), ...textBlock(0, chunks), ...end('refusal', usage)],
    toolCalls(calls: readonly WireCall[], usage) {
      const frames = start(usage);
      calls.forEach((call, index) => {
        frames.push(ev({ type: 'content_block_start', index, content_block: { type: 'tool_use', id: call.id, name: call.name, input: {} } }));
        for (const partial_json of call.argumentChunks)
          frames.push(ev({ type: 'content_block_delta', index, delta: { type: 'input_json_delta', partial_json } }));
        frames.push(ev({ type: 'content_block_stop', index }));
      });
      return [...frames, ...end('tool_use', usage)];
    },
    thinking: (thinking, signature, text, usage) => [
      ...start(usage),
      ev({ type: 'content_block_start', index: 0, content_block: { type: 'thinking', thinking: '', signature: '' } }),
      ...thinking.map((t) => ev({ type: 'content_block_delta', index: 0, delta: { type: 'thinking_delta', thinking: t } })),
      ev({ type: 'content_block_delta', index: 0, delta: { type: 'signature_delta', signature } }),
      ev({ type: 'content_block_stop', index: 0 }),
      ...textBlock(1, text),
      ...end('end_turn', usage),
    ],
    partialText: (chunks) => [
      ...start(undefined),
      ev({ type: 'content_block_start', index: 0, content_block: { type: 'text', text: '' } }),
      ...chunks.map((text) => ev({ type: 'content_block_delta', index: 0, delta: { type: 'text_delta', text } })),
    ],
    overflowError: () => ({
      status: 400,
      body: { type: 'error', error: { type: 'invalid_request_error', message: 'prompt is too long: 212345 tokens > 200000 maximum' }, request_id: 'req_1' },
    }),
    authError: (key) => ({
      status: 401,
      body: { type: 'error', error: { type: 'authentication_error', message: `invalid x-api-key: ${key}` }, request_id: 'req_1' },
    }),
    rateLimitError: () => ({
      status: 429,
      headers: { 'retry-after': '7' },
      body: { type: 'error', error: { type: 'rate_limit_error', message: 'Number of request tokens has exceeded your per-minute rate limit' } },
    }),
    serverError: () => ({ status: 500, body: { type: 'error', error: { type: 'api_error', message: 'Internal server error' } } }),
    toolCallId: (id) => id,
    keptSignature: (signature) => signature,
    systemPrompt: (body) => {
      const system = field(body, 'system');
      return typeof system === 'string'
        ? system
        : (items(system)
            .map((b) => field(b, 'text'))
            .join('') as string);
    },
    lastUserText: (body) => textOfContent(field(blocks(body, 'user').at(-1), 'content')),
    toolResultText: (body, id) => {
      for (const message of blocks(body, 'user')) {
        const result = items(field(message, 'content')).find((b) => field(b, 'type') === 'tool_result' && field(b, 'tool_use_id') === id);
        if (result !== undefined) return textOfContent(field(result, 'content'));
      }
      return undefined;
    },
  };
}
