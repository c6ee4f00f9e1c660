/**
 * Proves the Gemini provider against the real API: one tool round trip through the core Agent
 * loop (the model calls `add`, then answers with the sum). Runs only when GEMINI_API_KEY, GOOGLE_API_KEY is set;
 * skipped otherwise. `TROUPE_LIVE_GOOGLE_MODEL` picks another model.
 */
import { describe, it } from 'vitest';
import { liveKey, liveToolRoundTrip } from '../support/live.js';

const model = process.env['TROUPE_LIVE_GOOGLE_MODEL'] ?? 'gemini-2.5-flash';

describe.skipIf(liveKey('GEMINI_API_KEY', 'GOOGLE_API_KEY') === undefined)('Gemini (live)', () => {
  it('runs a tool round trip', { timeout: 120_000 }, async () => {
    await liveToolRoundTrip(`google:${model}`);
  });
});
