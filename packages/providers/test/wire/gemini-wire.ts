import type { SseFrame } from '../support/replay-server.js';
import { field, items, type VendorWire, type WireCall, type WireUsage } from './vendor-wire.js';

/*
 * Gemini `streamGenerateContent?alt=sse`: unnamed SSE events whose data is a whole
 * `GenerateContentResponse` (`candidates[0].content.parts`, `usageMetadata`, `modelVersion`,
 * `responseId`); the last one carries `finishReason`. Parts are whole: `{ text }`, `{ text,
 * thought: true }`, `{ functionCall: { id, name, args } }`, each possibly with a `thoughtSignature`.
 * There is no `[DONE]`.
 */

function chunk(parts: unknown[], extra: { finishReason?: string; usage?: WireUsage } = {}): SseFrame {
  const candidate: Record<string, unknown> = { content: { parts, role: 'model' }, index: 0 };
  if (extra.finishReason !== undefined) candidate['finishReason'] = extra.finishReason;
  const data: Record<string, unknown> = { candidates: [candidate], modelVersion: 'replay', responseId: 'resp-1' };
  const u = extra.usage;
  data['usageMetadata'] =
    u === undefined
      ? { promptTokenCount: 10, totalTokenCount: 10 }
      : {
          promptTokenCount: u.input,
          candidatesTokenCount: u.output - (u.reasoning ?? 0),
          totalTokenCount: u.input + u.output,
          ...(u.reasoning === undefined ? {} : { thoughtsTokenCount: u.reasoning }),
          ...(u.cached > 0 ? { cachedContentTokenCount: u.cached } : {}),
        };
  return { data };
}

function contents(body: unknown, role: string): unknown[] {
  return items(field(body, 'contents')).filter((c) => field(c, 'role') === role);
}

/** The Gemini wire. */
export function geminiWire(): VendorWire {
  return {
    label: 'Google Gemini',
    streamsArguments: false,
    reportsReasoning: true,
    text: (chunks, usage) => chunks.map((text, i) => (i === chunks.length - 1 ? chunk([{ text }], { finishReason: 'STOP', usage }) : chunk([{ text }]))),
    refusal: (chunks, usage) => chunks.map((text, i) => (i === chunks.length - 1 ? chunk([{ text }], { finishReason: 'SAFETY', usage }) : chunk([{ text }]))),
    toolCalls: (calls: readonly WireCall[], usage) => [
      chunk(
        calls.map((call, i) => ({
          functionCall: { id: call.id, name: call.name, args: JSON.parse(call.argumentChunks.join('')) as unknown },
          ...(i === 0 ? { thoughtSignature: 'c2lnLWNhbGw=' } : {}),
        })),
        { finishReason: 'STOP', usage },
      ),
    ],
    thinking: (thinking, signature, text, usage) => [
      ...thinking.map((t, i) => chunk([{ text: t, thought: true, ...(i === thinking.length - 1 ? { thoughtSignature: signature } : {}) }])),
      ...text.map((t, i) => (i === text.length - 1 ? chunk([{ text: t }], { finishReason: 'STOP', usage }) : chunk([{ text: t }]))),
    ],
    partialText: (chunks) => chunks.map((text) => chunk([{ text }])),
    overflowError: () => ({
      status: 400,
      body: {
        error: { code: 400, message: 'The input token count (1200345) exceeds the maximum number of tokens allowed (1048576).', status: 'INVALID_ARGUMENT' },
      },
    }),
    authError: (key) => ({
      status: 401,
      body: { error: { code: 401, message: `Request had invalid authentication credentials (key ${key}).`, status: 'UNAUTHENTICATED' } },
    }),
    rateLimitError: () => ({
      status: 429,
      headers: { 'retry-after': '7' },
      body: {
        error: {
          code: 429,
          message: 'Resource has been exhausted (e.g. check quota).',
          status: 'RESOURCE_EXHAUSTED',
          details: [{ '@type': 'type.googleapis.com/google.rpc.RetryInfo', retryDelay: '7s' }],
        },
      },
    }),
    serverError: () => ({
      status: 500,
      body: {
        error: {
          code: 500,
          message: 'An internal error has occurred. Please retry or report in https://developers.generativeai.google/guide/troubleshooting',
          status: 'INTERNAL',
        },
      },
    }),
    toolCallId: (id) => id,
    keptSignature: (signature) => signature,
    systemPrompt: (body) => field(body, 'systemInstruction', 'parts', 0, 'text') as string | undefined,
    lastUserText: (body) =>
      items(field(contents(body, 'user').at(-1), 'parts'))
        .map((p) => field(p, 'text') ?? '')
        .join(''),
    toolResultText: (body, _id, name) => {
      for (const content of contents(body, 'user')) {
        const part = items(field(content, 'parts')).find((p) => field(p, 'functionResponse', 'name') === name);
        if (part !== undefined) return field(part, 'functionResponse', 'response', 'output') as string | undefined;
      }
      return undefined;
    },
  };
}
