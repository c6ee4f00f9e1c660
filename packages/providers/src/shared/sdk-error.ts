import type { ProviderFailure } from '@troupe/core';
import { classifyFailure, networkFailure, type HeaderReader } from './failure.js';

interface VendorErrorBody {
  message?: string;
  code?: string;
}

function stringOf(value: unknown): string | undefined {
  return typeof value === 'string' && value !== '' ? value : undefined;
}

function recordOf(value: unknown): Record<string, unknown> | undefined {
  return typeof value === 'object' && value !== null ? (value as Record<string, unknown>) : undefined;
}

/** The message and code of an error body: OpenAI's `{ message, code, type }` or Anthropic's `{ type: 'error', error: { type, message } }`. */
function bodyOf(value: unknown): VendorErrorBody | undefined {
  const outer = recordOf(value);
  if (outer === undefined) return undefined;
  const inner = recordOf(outer['error']) ?? outer;
  const body: VendorErrorBody = {};
  const message = stringOf(inner['message']);
  const code = stringOf(inner['code']) ?? stringOf(inner['type']);
  if (message !== undefined) body.message = message;
  if (code !== undefined) body.code = code;
  return message === undefined && code === undefined ? undefined : body;
}

function headerReaderOf(value: unknown): HeaderReader | undefined {
  const headers = recordOf(value);
  const get = headers?.['get'];
  if (typeof get !== 'function') return undefined;
  return (name) => {
    const result: unknown = Reflect.apply(get, headers, [name]);
    return typeof result === 'string' ? result : null;
  };
}

/**
 * Classifies what the OpenAI or Anthropic SDK threw. Their `APIError` carries the HTTP status
 * (absent for an error reported inside the stream), the response headers (for retry-after) and
 * the vendor's error body; anything without a status or body (connection refused or reset, a
 * stream cut mid-way, a timeout) is a retryable `network` failure.
 */
export function classifySdkError(error: unknown): ProviderFailure {
  const fields = recordOf(error);
  const status = typeof fields?.['status'] === 'number' ? fields['status'] : undefined;
  const body = bodyOf(fields?.['error']);
  if (status === undefined && body === undefined) return networkFailure(error);
  const message = body?.message ?? (error instanceof Error ? error.message : String(error));
  const facts: Parameters<typeof classifyFailure>[0] = { message: status === undefined ? message : `${status} ${message}` };
  if (status !== undefined) facts.status = status;
  const code = body?.code ?? stringOf(fields?.['type']) ?? stringOf(fields?.['code']);
  if (code !== undefined) facts.code = code;
  const header = headerReaderOf(fields?.['headers']);
  if (header !== undefined) facts.header = header;
  return classifyFailure(facts);
}
