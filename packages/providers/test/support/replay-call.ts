import type { Provider, ProviderEvent, ProviderRequest } from '@troupe/core';

/** Every event of one call, collected. */
export async function collect(events: AsyncIterable<ProviderEvent>): Promise<ProviderEvent[]> {
  const out: ProviderEvent[] = [];
  for await (const event of events) out.push(event);
  return out;
}

/** Runs one call to the end. */
export function call(provider: Provider, request: ProviderRequest): Promise<ProviderEvent[]> {
  return collect(provider.stream(request, { signal: new AbortController().signal }));
}

/** The finished message of a call's events (throws if it failed). */
export function doneOf(events: readonly ProviderEvent[]): Extract<ProviderEvent, { type: 'done' }>['message'] {
  const end = events.at(-1);
  if (end?.type !== 'done') throw new Error(`expected done, got ${JSON.stringify(end)}`);
  return end.message;
}

/** The failure of a call's events (throws if it succeeded). */
export function failureOf(events: readonly ProviderEvent[]): Extract<ProviderEvent, { type: 'error' }>['error'] {
  const end = events.at(-1);
  if (end?.type !== 'error') throw new Error(`expected error, got ${JSON.stringify(end)}`);
  return end.error;
}
