/**
 * Proves failure classification as values: 429 and rate-limit codes → `rate_limited` with the
 * delay from `retry-after-ms`, `retry-after` in seconds or as a date; 401/403 and auth codes →
 * `auth`; 413 and each vendor's overflow messages → `overflow`; 408 → `network`; 5xx and
 * overloaded codes → retryable `api`; other 4xx → `invalid_request`; and that connection errors
 * and aborts are told apart.
 */
import { describe, expect, it } from 'vitest';
import { classifyFailure, describeCause, isAbortError, isOverflowMessage, networkFailure, retryAfterFromHeaders } from '../../src/shared/failure.js';

const headers = (values: Record<string, string>) => (name: string) => values[name] ?? null;

describe('classifyFailure', () => {
  it.each([
    [{ status: 429, message: 'slow' }, 'rate_limited', true],
    [{ message: 'x', code: 'rate_limit_error' }, 'rate_limited', true],
    [{ status: 401, message: 'who' }, 'auth', false],
    [{ status: 403, message: 'no' }, 'auth', false],
    [{ status: 413, message: 'big' }, 'overflow', false],
    [{ status: 400, message: 'prompt is too long: 210000 tokens > 200000 maximum' }, 'overflow', false],
    [{ status: 400, message: 'x', code: 'context_length_exceeded' }, 'overflow', false],
    [{ status: 400, message: 'bad field' }, 'invalid_request', false],
    [{ status: 404, message: 'no model' }, 'invalid_request', false],
    [{ status: 408, message: 'timeout' }, 'network', true],
    [{ status: 500, message: 'oops' }, 'api', true],
    [{ status: 529, message: 'Overloaded' }, 'api', true],
    [{ message: 'Overloaded', code: 'overloaded_error' }, 'api', true],
  ] as const)('%j → %s', (facts, kind, retryable) => {
    expect(classifyFailure(facts)).toMatchObject({ kind, retryable });
  });

  it('keeps the status', () => {
    expect(classifyFailure({ status: 500, message: 'x' }).status).toBe(500);
    expect(classifyFailure({ message: 'x', code: 'overloaded_error' })).not.toHaveProperty('status');
  });

  it('takes the retry delay from the headers, then from the body', () => {
    expect(classifyFailure({ status: 429, message: 'x', header: headers({ 'retry-after-ms': '1500' }) }).retryAfterMs).toBe(1500);
    expect(classifyFailure({ status: 429, message: 'x', header: headers({ 'retry-after': '3' }), retryAfterMs: 9000 }).retryAfterMs).toBe(3000);
    expect(classifyFailure({ status: 429, message: 'x', retryAfterMs: 9000 }).retryAfterMs).toBe(9000);
    expect(classifyFailure({ status: 429, message: 'x' })).not.toHaveProperty('retryAfterMs');
  });
});

describe('retryAfterFromHeaders', () => {
  it('reads seconds, milliseconds and HTTP dates', () => {
    const now = () => Date.parse('2026-11-22T10:00:00Z');
    expect(retryAfterFromHeaders(headers({ 'retry-after': '2.5' }), now)).toBe(2500);
    expect(retryAfterFromHeaders(headers({ 'retry-after-ms': '20' }), now)).toBe(20);
    expect(retryAfterFromHeaders(headers({ 'retry-after': 'Sun, 22 Nov 2026 10:00:30 GMT' }), now)).toBe(30_000);
    expect(retryAfterFromHeaders(headers({ 'retry-after': 'soon' }), now)).toBeUndefined();
    expect(retryAfterFromHeaders(undefined)).toBeUndefined();
  });
});

describe('overflow messages', () => {
  it.each([
    "This model's maximum context length is 128000 tokens.",
    'Your input exceeds the context window of this model.',
    'input length and `max_tokens` exceed context limit: 190000 + 20000 > 200000',
    'The input token count (1200000) exceeds the maximum number of tokens allowed (1048576).',
    'the request exceeds the available context size, try increasing it',
    'Please reduce the length of the messages or completion.',
  ])('recognises %j', (message) => {
    expect(isOverflowMessage(message)).toBe(true);
  });

  it('does not see overflow in other errors', () => {
    expect(isOverflowMessage('Invalid value for temperature')).toBe(false);
  });
});

describe('connection failures', () => {
  it('describes nested causes', () => {
    const error = new TypeError('terminated', { cause: Object.assign(new Error('other side closed'), { code: 'UND_ERR_SOCKET' }) });
    expect(describeCause(error)).toBe('terminated: other side closed: UND_ERR_SOCKET');
    expect(networkFailure(error)).toEqual({ kind: 'network', message: 'connection failed: terminated: other side closed: UND_ERR_SOCKET', retryable: true });
  });

  it('tells aborts apart', () => {
    expect(isAbortError(new DOMException('This operation was aborted', 'AbortError'))).toBe(true);
    expect(isAbortError(new TypeError('terminated'))).toBe(false);
  });
});
