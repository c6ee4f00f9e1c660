/**
 * Proves the Anthropic provider against the real API: one tool round trip through the core Agent
 * loop (the model calls `add`, then answers with the sum). Runs only when ANTHROPIC_API_KEY is set;
 * skipped otherwise. `TROUPE_LIVE_ANTHROPIC_MODEL` picks another model.
 */
import { describe, it } from 'vitest';
import { liveKey, liveToolRoundTrip } from '../support/live.js';

const model = process.env['TROUPE_LIVE_ANTHROPIC_MODEL'] ?? 'claude-haiku-4-5';

describe.skipIf(liveKey('ANTHROPIC_API_KEY') === undefined)('Anthropic (live)', () => {
  it('runs a tool round trip', { timeout: 120_000 }, async () => {
    await liveToolRoundTrip(`anthropic:${model}`);
  });
});
