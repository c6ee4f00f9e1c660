/**
 * Proves the OpenAI Responses provider against the real API: one tool round trip through the core Agent
 * loop (the model calls `add`, then answers with the sum). Runs only when OPENAI_API_KEY is set;
 * skipped otherwise. `TROUPE_LIVE_OPENAI_MODEL` picks another model.
 */
import { describe, it } from 'vitest';
import { liveKey, liveToolRoundTrip } from '../support/live.js';

const model = process.env['TROUPE_LIVE_OPENAI_MODEL'] ?? 'gpt-5.4-mini';

describe.skipIf(liveKey('OPENAI_API_KEY') === undefined)('OpenAI Responses (live)', () => {
  it('runs a tool round trip', { timeout: 120_000 }, async () => {
    await liveToolRoundTrip(`openai:${model}`);
  });
});
