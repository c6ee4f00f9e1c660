import type { Tool } from '@troupe/core';

/** Options of {@link createClockTool}. */
export interface ClockToolOptions {
  /** The time source in epoch milliseconds. Default: `Date.now`. */
  now?: () => number;
}

/**
 * A demo tool that reports the current time as an ISO 8601 string (UTC). It takes no arguments
 * and is read-only. It stands in for the real built-in tools until they land.
 */
export function createClockTool(options: ClockToolOptions = {}): Tool {
  const now = options.now ?? Date.now;
  return {
    name: 'clock',
    label: 'Clock',
    description: 'Returns the current date and time as an ISO 8601 string (UTC).',
    parameters: { type: 'object', properties: {}, additionalProperties: false },
    readOnly: true,
    execute() {
      const iso = new Date(now()).toISOString();
      return { content: iso, details: { iso } };
    },
  };
}
