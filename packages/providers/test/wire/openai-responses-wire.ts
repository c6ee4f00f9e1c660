import type { SseFrame } from '../support/replay-server.js';
import { field, items, type VendorWire, type WireCall, type WireUsage } from './vendor-wire.js';

/*
 * OpenAI Responses streaming: named semantic events (`event: response.output_text.delta` with a
 * JSON `data` whose `type` repeats the name and carries a `sequence_number`), from
 * `response.created` to `response.completed`; output items are announced by
 * `response.output_item.added` and finished by `response.output_item.done`. Function-call
 * arguments stream as `response.function_call_arguments.delta`, reasoning summaries as
 * `response.reasoning_summary_text.delta`; there is no `[DONE]`.
 */

function events(list: Record<string, unknown>[]): SseFrame[] {
  return list.map((data, i) => ({ event: data['type'] as string, data: { ...data, sequence_number: i } }));
}

function response(status: string, output: unknown[], usage: WireUsage | null, incomplete: string | null = null): Record<string, unknown> {
  return {
    id: 'resp_1',
    object: 'response',
    created_at: 1_700_000_000,
    status,
    model: 'replay',
    output,
    error: null,
    incomplete_details: incomplete === null ? null : { reason: incomplete },
    usage:
      usage === null
        ? null
        : {
            input_tokens: usage.input,
            input_tokens_details: { cached_tokens: usage.cached },
            output_tokens: usage.output,
            output_tokens_details: { reasoning_tokens: usage.reasoning ?? 0 },
            total_tokens: usage.input + usage.output,
          },
  };
}

function messageEvents(id: string, outputIndex: number, chunks: readonly string[], done: boolean): Record<string, unknown>[] {
  const text = chunks.join('');
  const list: Record<string, unknown>[] = [
    { type: 'response.output_item.added', output_index: outputIndex, item: { id, type: 'message', status: 'in_progress', role: 'assistant', content: [] } },
    { type: 'response.content_part.added', item_id: id, output_index: outputIndex, content_index: 0, part: { type: 'output_text', text: '', annotations: [] } },
    ...chunks.map((delta) => ({ type: 'response.output_text.delta', item_id: id, output_index: outputIndex, content_index: 0, delta, logprobs: [] })),
  ];
  if (!done) return list;
  const part = { type: 'output_text', text, annotations: [] };
  return [
    ...list,
    { type: 'response.output_text.done', item_id: id, output_index: outputIndex, content_index: 0, text, logprobs: [] },
    { type: 'response.content_part.done', item_id: id, output_index: outputIndex, content_index: 0, part },
    { type: 'response.output_item.done', output_index: outputIndex, item: { id, type: 'message', status: 'completed', role: 'assistant', content: [part] } },
  ];
}

function messageItem(id: string, text: string): Record<string, unknown> {
  return { id, type: 'message', status: 'completed', role: 'assistant', content: [{ type: 'output_text', text, annotations: [] }] };
}

function start(): Record<string, unknown>[] {
  return [
    { type: 'response.created', response: response('in_progress', [], null) },
    { type: 'response.in_progress', response: response('in_progress', [], null) },
  ];
}

/** The item id the wire gives a function call whose call id is `callId`. */
export function functionItemId(callId: string): string {
  return `fc_${callId}`;
}

/** The Responses wire. */
export function openAIResponsesWire(): VendorWire {
  return {
    label: 'OpenAI Responses',
    streamsArguments: true,
    reportsReasoning: true,
    text: (chunks, usage) =>
      events([
        ...start(),
        ...messageEvents('msg_1', 0, chunks, true),
        { type: 'response.completed', response: response('completed', [messageItem('msg_1', chunks.join(''))], usage) },
      ]),
    refusal: (chunks, usage) =>
      events([
        ...start(),
        ...messageEvents('msg_1', 0, chunks, false),
        { type: 'response.incomplete', response: response('incomplete', [messageItem('msg_1', chunks.join(''))], usage, 'content_filter') },
      ]),
    toolCalls(calls: readonly WireCall[], usage) {
      const list = start();
      const output: unknown[] = [];
      calls.forEach((call, outputIndex) => {
        const id = functionItemId(call.id);
        const args = call.argumentChunks.join('');
        const item = { id, type: 'function_call', status: 'completed', call_id: call.id, name: call.name, arguments: args };
        list.push({ type: 'response.output_item.added', output_index: outputIndex, item: { ...item, status: 'in_progress', arguments: '' } });
        for (const delta of call.argumentChunks) list.push({ type: 'response.function_call_arguments.delta', item_id: id, output_index: outputIndex, delta });
        list.push({ type: 'response.function_call_arguments.done', item_id: id, output_index: outputIndex, name: call.name, arguments: args });
        list.push({ type: 'response.output_item.done', output_index: outputIndex, item });
        output.push(item);
      });
      list.push({ type: 'response.completed', response: response('completed', output, usage) });
      return events(list);
    },
    thinking(thinking, signature, text, usage) {
      const summary = thinking.join('');
      const reasoning = { id: 'rs_1', type: 'reasoning', summary: [{ type: 'summary_text', text: summary }], encrypted_content: signature };
      return events([
        ...start(),
        { type: 'response.output_item.added', output_index: 0, item: { id: 'rs_1', type: 'reasoning', summary: [] } },
        { type: 'response.reasoning_summary_part.added', item_id: 'rs_1', output_index: 0, summary_index: 0, part: { type: 'summary_text', text: '' } },
        ...thinking.map((delta) => ({ type: 'response.reasoning_summary_text.delta', item_id: 'rs_1', output_index: 0, summary_index: 0, delta })),
        { type: 'response.reasoning_summary_text.done', item_id: 'rs_1', output_index: 0, summary_index: 0, text: summary },
        { type: 'response.reasoning_summary_part.done', item_id: 'rs_1', output_index: 0, summary_index: 0, part: { type: 'summary_text', text: summary } },
        { type: 'response.output_item.done', output_index: 0, item: reasoning },
        ...messageEvents('msg_1', 1, text, true),
        { type: 'response.completed', response: response('completed', [reasoning, messageItem('msg_1', text.join(''))], usage) },
      ]);
    },
    partialText: (chunks) => events([...start(), ...messageEvents('msg_1', 0, chunks, false)]),
    overflowError: () => ({
      status: 400,
      body: {
        error: {
          message: 'Your input exceeds the context window of this model. Please adjust your input and try again.',
          type: 'invalid_request_error',
          param: 'input',
          code: 'context_length_exceeded',
        },
      },
    }),
    authError: (key) => ({
      status: 401,
      body: { error: { message: `Incorrect API key provided: ${key}.`, type: 'invalid_request_error', param: null, code: 'invalid_api_key' } },
    }),
    rateLimitError: () => ({
      status: 429,
      headers: { 'retry-after': '7' },
      body: {
        error: { message: 'Rate limit reached for gpt in organization org-1 on tokens per min.', type: 'tokens', param: null, code: 'rate_limit_exceeded' },
      },
    }),
    serverError: () => ({
      status: 500,
      body: { error: { message: 'The server had an error processing your request.', type: 'server_error', param: null, code: 'server_error' } },
    }),
    toolCallId: (id) => `${id}|${functionItemId(id)}`,
    keptSignature: (signature) => JSON.stringify({ type: 'reasoning', id: 'rs_1', encrypted_content: signature }),
    systemPrompt: (body) => field(body, 'instructions') as string | undefined,
    lastUserText: (body) => {
      const user = items(field(body, 'input'))
        .filter((m) => field(m, 'role') === 'user')
        .at(-1);
      const content = field(user, 'content');
      return typeof content === 'string'
        ? content
        : (items(content)
            .map((p) => field(p, 'text'))
            .join('') as string);
    },
    toolResultText: (body, id) => {
      const output = items(field(body, 'input')).find((m) => field(m, 'type') === 'function_call_output' && field(m, 'call_id') === id);
      return field(output, 'output') as string | undefined;
    },
  };
}
