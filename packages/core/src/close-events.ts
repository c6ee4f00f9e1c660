import type { ProviderEvent } from './provider.js';

/** Closes a reply's events read no further (as `for await` does when it stops early); resolves once closed, a failure to close ignored. */
export function closeEvents(events: AsyncIterator<ProviderEvent>): Promise<unknown> {
  try {
    return Promise.resolve(events.return?.()).catch(ignore);
  } catch {
    return Promise.resolve();
  }
}

function ignore(): void {}
