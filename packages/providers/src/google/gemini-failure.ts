import type { ProviderFailure } from '@troupe/core';
import { classifyFailure, type HeaderReader } from '../shared/failure.js';
import type { GeminiError } from './gemini-wire.js';

/** Gemini's `RetryInfo.retryDelay` (`"30s"`, `"1.5s"`) in milliseconds. */
function retryDelayMs(error: GeminiError): number | undefined {
  for (const detail of error.details ?? []) {
    const match = /^(\d+(?:\.\d+)?)s$/.exec(detail.retryDelay ?? '');
    if (match?.[1] !== undefined) return Math.round(Number(match[1]) * 1000);
  }
  return undefined;
}

/** Classifies a Gemini error body (from a non-2xx response or inside the stream). */
export function geminiFailure(error: GeminiError, status: number | undefined, header: HeaderReader | undefined): ProviderFailure {
  const code = status ?? error.code;
  const message = `${code ?? ''} ${error.status ?? ''} ${error.message ?? 'Gemini request failed'}`.replace(/\s+/g, ' ').trim();
  const facts: Parameters<typeof classifyFailure>[0] = { message };
  if (code !== undefined) facts.status = code;
  if (error.status !== undefined) facts.code = error.status;
  if (header !== undefined) facts.header = header;
  const delay = retryDelayMs(error);
  if (delay !== undefined) facts.retryAfterMs = delay;
  return classifyFailure(facts);
}

/** Reads a failed response's body as a Gemini error (any body: proxies answer in HTML or text). */
export async function responseFailure(response: Response): Promise<ProviderFailure> {
  const text = await response.text().catch(() => '');
  let error: GeminiError = { message: text.slice(0, 500) || response.statusText };
  try {
    const body: unknown = JSON.parse(text);
    const inner = typeof body === 'object' && body !== null ? (body as { error?: unknown }).error : undefined;
    if (typeof inner === 'object' && inner !== null) error = inner as GeminiError;
  } catch {
    // Not JSON: keep the text.
  }
  return geminiFailure(error, response.status, (name) => response.headers.get(name));
}
