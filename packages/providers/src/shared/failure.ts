import type { ProviderFailure } from '@troupe/core';

/** Reads one response header (case-insensitive), as `Headers#get` does. */
export type HeaderReader = (name: string) => string | null | undefined;

/** What is known of a failed call: the HTTP status (absent for a failure inside a stream), the vendor's message and error code or type. */
export interface FailureFacts {
  status?: number;
  message: string;
  /** The vendor's error code or type (`context_length_exceeded`, `rate_limit_error`, `overloaded_error`). */
  code?: string;
  header?: HeaderReader;
  /** A retry delay the vendor gave in the body (Gemini's `RetryInfo`), in milliseconds. */
  retryAfterMs?: number;
}

/**
 * Messages vendors and OpenAI-compatible servers use for a prompt that does not fit the context
 * window: OpenAI (`context_length_exceeded`, "maximum context length"), Anthropic ("prompt is too
 * long", "exceed context limit"), Gemini ("input token count … exceeds the maximum"), vLLM,
 * llama.cpp ("exceeds the available context size"), Ollama, OpenRouter and Groq.
 */
const OVERFLOW = [
  /context[_ ]length[_ ]exceeded/i,
  /maximum context length/i,
  /context window/i,
  /prompt is too long/i,
  /exceeds? (?:the )?context (?:limit|size)/i,
  /input length and `?max_tokens`? exceed/i,
  /input token count.*exceeds/i,
  /exceeds the maximum number of tokens/i,
  /exceeds the available context size/i,
  /too many (?:input )?tokens/i,
  /reduce the length of the messages/i,
  /request too large/i,
];

/** Whether a vendor message (or code) says the prompt does not fit the model's context window. */
export function isOverflowMessage(text: string): boolean {
  return OVERFLOW.some((pattern) => pattern.test(text));
}

/**
 * The delay a 429/503 asks for: `retry-after-ms` (OpenAI, Anthropic), else `retry-after` in
 * seconds or as an HTTP date. `undefined` when neither is there or parses.
 */
export function retryAfterFromHeaders(header: HeaderReader | undefined, now: () => number = Date.now): number | undefined {
  if (header === undefined) return undefined;
  const ms = Number.parseFloat(header('retry-after-ms') ?? '');
  if (Number.isFinite(ms) && ms >= 0) return Math.round(ms);
  const raw = header('retry-after')?.trim();
  if (raw === undefined || raw === '') return undefined;
  const seconds = Number(raw);
  if (Number.isFinite(seconds) && seconds >= 0) return Math.round(seconds * 1000);
  const date = Date.parse(raw);
  return Number.isNaN(date) ? undefined : Math.max(0, date - now());
}

const RATE_LIMIT_CODES = /rate_limit|resource_exhausted|too_many_requests/i;
const RETRYABLE_CODES = /overloaded|server_error|api_error|internal|unavailable|timeout/i;
const AUTH_CODES = /authentication|permission|unauthenticated|invalid_api_key|permission_denied/i;
/** Gemini answers a bad key with 400 INVALID_ARGUMENT "API key not valid". */
const AUTH_MESSAGES = /api[ _]key not valid|invalid api[ _]key|incorrect api key/i;

/**
 * Classifies a failed call as a {@link ProviderFailure}: 429 (or a rate-limit code) →
 * `rate_limited` with the retry-after delay; 401/403 → `auth`; an overflow message or 413 →
 * `overflow`; 408, 5xx, 529 and overloaded/server codes → retryable `api` (408: `network`); other
 * 4xx → `invalid_request`. Not retryable unless said.
 */
export function classifyFailure(facts: FailureFacts): ProviderFailure {
  const { status, message } = facts;
  const code = facts.code ?? '';
  const failure = (kind: ProviderFailure['kind'], retryable: boolean): ProviderFailure => {
    const out: ProviderFailure = { kind, message, retryable };
    if (status !== undefined) out.status = status;
    return out;
  };
  if (status === 429 || RATE_LIMIT_CODES.test(code)) {
    const out = failure('rate_limited', true);
    const after = retryAfterFromHeaders(facts.header) ?? facts.retryAfterMs;
    if (after !== undefined) out.retryAfterMs = after;
    return out;
  }
  if (status === 401 || status === 403 || AUTH_CODES.test(code) || AUTH_MESSAGES.test(message)) return failure('auth', false);
  if (status === 413 || isOverflowMessage(code) || isOverflowMessage(message)) return failure('overflow', false);
  if (status === 408) return failure('network', true);
  if ((status !== undefined && status >= 500) || RETRYABLE_CODES.test(code)) {
    const out = failure('api', true);
    const after = retryAfterFromHeaders(facts.header);
    if (after !== undefined) out.retryAfterMs = after;
    return out;
  }
  if (status !== undefined && status >= 400) return failure('invalid_request', false);
  return failure('api', true);
}

/** The failure every provider ends an aborted call with. */
export function abortedFailure(): ProviderFailure {
  return { kind: 'aborted', message: 'request aborted', retryable: false };
}

/** A connection that failed or dropped (reset, refused, closed mid-stream): retryable. */
export function networkFailure(error: unknown): ProviderFailure {
  return { kind: 'network', message: `connection failed: ${describeCause(error)}`, retryable: true };
}

/** The most specific message of an error and its causes (`terminated: other side closed`). */
export function describeCause(error: unknown): string {
  const parts: string[] = [];
  let current: unknown = error;
  for (let depth = 0; depth < 4 && current !== undefined && current !== null; depth++) {
    if (current instanceof Error) {
      if (current.message !== '' && !parts.includes(current.message)) parts.push(current.message);
      const code = (current as Error & { code?: unknown }).code;
      if (typeof code === 'string' && !parts.includes(code)) parts.push(code);
      current = current.cause;
    } else {
      parts.push(String(current));
      break;
    }
  }
  return parts.length === 0 ? 'unknown error' : parts.join(': ');
}

/** Whether `error` is an abort (DOMException `AbortError`, or an SDK's abort error). */
export function isAbortError(error: unknown): boolean {
  return error instanceof Error && (error.name === 'AbortError' || error.name === 'APIUserAbortError' || error.constructor.name === 'APIUserAbortError');
}
