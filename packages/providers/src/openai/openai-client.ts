import type OpenAI from 'openai';
import { lazyClient } from '../shared/lazy-client.js';
import type { ProviderContext } from '../shared/provider-context.js';

/**
 * `fetch` that rewrites error bodies OpenAI-compatible servers send in their own shape (vLLM's
 * top-level `{ object: 'error', message, type, code }`, `{ detail }` from FastAPI servers) into
 * OpenAI's `{ error: { message, type, code } }`, so the SDK's error keeps the server's message and
 * overflow and other failures are recognised. Successful responses pass through untouched.
 */
async function compatibleFetch(input: string | URL | Request, init?: RequestInit): Promise<Response> {
  const response = await fetch(input, init);
  if (response.ok || !(response.headers.get('content-type') ?? '').includes('json')) return response;
  const text = await response.text();
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    body = undefined;
  }
  let rewritten = text;
  if (typeof body === 'object' && body !== null && !('error' in body)) {
    const fields = body as Record<string, unknown>;
    const message = typeof fields['message'] === 'string' ? fields['message'] : typeof fields['detail'] === 'string' ? fields['detail'] : undefined;
    if (message !== undefined) rewritten = JSON.stringify({ error: { message, type: fields['type'] ?? null, code: fields['code'] ?? null } });
  }
  return new Response(rewritten, { status: response.status, statusText: response.statusText, headers: response.headers });
}

/**
 * An OpenAI SDK client for a provider: the SDK's own retries off (the agent's retry strategy
 * decides), the resolved base URL, a placeholder key (the SDK insists on one; the real key goes
 * with each request, see {@link openAIRequestOptions}), extra headers, the SDK's logging off, and
 * error bodies of OpenAI-compatible servers normalised.
 *
 * The SDK is loaded here, not when the package is: a process whose graph has no OpenAI model
 * never pays for it (about 15 MB and 0.2 s). The load starts when the provider is made, and a
 * load that fails fails each request (`lazyClient`).
 */
export function openAIClient(ctx: ProviderContext): Promise<OpenAI> {
  return lazyClient(async () => {
    const { default: OpenAI } = await import('openai');
    return new OpenAI({
      apiKey: 'not-needed',
      baseURL: ctx.baseUrl,
      maxRetries: 0,
      defaultHeaders: { ...ctx.headers },
      logLevel: 'off',
      fetch: compatibleFetch,
    });
  });
}

/** The options of one SDK request: its abort signal and the key of this request (`ctx.key()`), when there is one. */
export async function openAIRequestOptions(ctx: ProviderContext, signal: AbortSignal): Promise<{ signal: AbortSignal; headers?: Record<string, string> }> {
  const key = await ctx.key();
  return key === undefined ? { signal } : { signal, headers: { Authorization: `Bearer ${key}` } };
}
