import type { ProviderFailure } from '@troupe/core';
import type { ProviderContext } from './provider-context.js';

/** Host names that always mean this machine. */
const LOOPBACK = /^(?:localhost|[^.]+\.localhost|127(?:\.\d{1,3}){3}|\[::1\]|0\.0\.0\.0|\[::\])$/i;

/** Whether `baseUrl` points at a server on this machine (localhost, 127.0.0.0/8, ::1). */
export function isLocalBaseUrl(baseUrl: string): boolean {
  try {
    return LOOPBACK.test(new URL(baseUrl).hostname);
  } catch {
    return false;
  }
}

/** Whether `error` or one of its causes (or the errors of an `AggregateError` among them) is a refused connection. */
export function isConnectionRefused(error: unknown): boolean {
  const seen = new Set<unknown>();
  const stack: unknown[] = [error];
  while (stack.length > 0) {
    const current = stack.pop();
    if (current === null || typeof current !== 'object' || seen.has(current)) continue;
    seen.add(current);
    const fields = current as { code?: unknown; cause?: unknown; errors?: unknown };
    if (fields.code === 'ECONNREFUSED') return true;
    stack.push(fields.cause);
    if (Array.isArray(fields.errors)) stack.push(...(fields.errors as unknown[]));
  }
  return false;
}

/**
 * The failure of a call to a model server on this machine that refused the connection: not
 * retryable, since nothing listens and waiting will not start it, with a hint naming the command
 * that starts the server (`ollama serve`). `undefined` for anything else, so remote servers and
 * other failures keep their own classification (and their retries).
 */
export function refusedLocalServer(ctx: Pick<ProviderContext, 'name' | 'preset' | 'baseUrl'>, error: unknown): ProviderFailure | undefined {
  if (!isLocalBaseUrl(ctx.baseUrl) || !isConnectionRefused(error)) return undefined;
  const start = ctx.preset.startCommand === undefined ? '' : ` (${ctx.preset.startCommand})`;
  return { kind: 'network', message: `cannot reach ${ctx.name} at ${ctx.baseUrl} (connection refused): is the server running?${start}`, retryable: false };
}

/** `classify`, except that a refused connection to a server on this machine fails at once (see {@link refusedLocalServer}). */
export function classifyFor(
  ctx: Pick<ProviderContext, 'name' | 'preset' | 'baseUrl'>,
  classify: (error: unknown) => ProviderFailure,
): (error: unknown) => ProviderFailure {
  return (error) => refusedLocalServer(ctx, error) ?? classify(error);
}
