import { REDACTED_KEYS } from '@troupe/runtime';

const SECRET = new Set<string>(REDACTED_KEYS);

/** What a secret's value is replaced with: the logs' censor. */
export const REDACTED = '[redacted]';

/**
 * A copy of `value` with the value of every key the logs redact (`apiKey`, `authorization`,
 * `token`, `password`…, the runtime's `REDACTED_KEYS`) replaced by `[redacted]`, at any depth:
 * records, events and messages go to the page through it, as log lines go through pino's.
 */
export function redactSecrets<T>(value: T): T {
  return redact(value) as T;
}

function redact(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(redact);
  if (typeof value !== 'object' || value === null) return value;
  const out: Record<string, unknown> = {};
  for (const [key, field] of Object.entries(value)) out[key] = SECRET.has(key) ? REDACTED : redact(field);
  return out;
}
