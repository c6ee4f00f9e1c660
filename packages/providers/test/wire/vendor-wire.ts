import type { SseFrame } from '../support/replay-server.js';

/** Token counts as a vendor reports them: `input` is every prompt token, `cached` of which came from the cache. */
export interface WireUsage {
  input: number;
  cached: number;
  output: number;
  /** Tokens written to the prompt cache (Anthropic). */
  cacheWrite?: number;
  /** Of `output`, the reasoning tokens (sent by vendors that report them). */
  reasoning?: number;
}

/** A tool call on the wire: its vendor id, name, and argument JSON in the pieces the vendor streams. */
export interface WireCall {
  id: string;
  name: string;
  argumentChunks: readonly string[];
}

/** An error response: status, JSON body, extra headers. */
export interface WireError {
  status: number;
  body: unknown;
  headers?: Record<string, string>;
}

/**
 * One vendor's documented streaming wire format, as a test fixture: builds the SSE frames of
 * each scenario of the contract suite and reads back what a recorded request said.
 */
export interface VendorWire {
  readonly label: string;
  /** Whether the vendor streams tool-call arguments in pieces (Gemini sends each call whole). */
  readonly streamsArguments: boolean;
  /** Whether the vendor reports reasoning tokens apart (Anthropic counts them in the output only). */
  readonly reportsReasoning: boolean;
  /** A text reply, streamed in `chunks`. */
  text(chunks: readonly string[], usage: WireUsage): SseFrame[];
  /** A reply that only calls tools (parallel when several). */
  toolCalls(calls: readonly WireCall[], usage: WireUsage): SseFrame[];
  /** Reasoning (with `signature` where the vendor signs it) followed by text. */
  thinking(thinking: readonly string[], signature: string, text: readonly string[], usage: WireUsage): SseFrame[];
  /** A reply the vendor stopped as a refusal or by its content filter, after streaming `chunks`. */
  refusal(chunks: readonly string[], usage: WireUsage): SseFrame[];
  /** The first frames of a text reply, without its end (to drop or hold the connection after). */
  partialText(chunks: readonly string[]): SseFrame[];
  overflowError(): WireError;
  /** A 401 whose message echoes `key`, as some vendors do (masked or whole). */
  authError(key: string): WireError;
  rateLimitError(): WireError;
  serverError(): WireError;
  /** The tool-call id the provider reports for a wire call id. */
  toolCallId(wireId: string): string;
  /** The signature the provider keeps for a thinking part that had `signature` on the wire, if the vendor signs. */
  keptSignature(signature: string): string | undefined;
  /** The system prompt a recorded request body carries. */
  systemPrompt(body: unknown): string | undefined;
  /** The text of the last user message of a recorded request body. */
  lastUserText(body: unknown): string | undefined;
  /** The text of the tool result a recorded request body gives for the call `wireId` (named `name`). */
  toolResultText(body: unknown, wireId: string, name: string): string | undefined;
}

/** Narrow reads of recorded JSON bodies. */
export function field(value: unknown, ...path: (string | number)[]): unknown {
  let current = value;
  for (const key of path) {
    if (typeof current !== 'object' || current === null) return undefined;
    current = (current as Record<string | number, unknown>)[key];
  }
  return current;
}

/** `value` as an array of unknowns (`[]` when it is not an array). */
export function items(value: unknown): unknown[] {
  return Array.isArray(value) ? (value as unknown[]) : [];
}
