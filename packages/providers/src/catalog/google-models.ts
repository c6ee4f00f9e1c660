import type { ModelInfo, ModelPrices, ThinkingStyle } from './model-info.js';

/*
 * Google Gemini models, read off ai.google.dev/gemini-api/docs (model pages and pricing) in
 * October–November 2026. Implicit context caching has no write fee, so `cacheWrite` is the input
 * price. Pro models cost more for prompts over 200K tokens.
 */

const LEVEL: ThinkingStyle = { kind: 'level' };
const BUDGET: ThinkingStyle = { kind: 'budget' };

function prices(input: number, output: number, cacheRead: number): ModelPrices {
  return { input, output, cacheRead, cacheWrite: input };
}

function gemini(id: string, name: string, p: ModelPrices, thinking: ThinkingStyle, extra: Partial<Pick<ModelInfo, 'longContext' | 'note'>> = {}): ModelInfo {
  return { vendor: 'google', id, name, contextWindow: 1_048_576, maxOutput: 65_536, prices: p, thinking, ...extra };
}

/** The Google part of the catalog. */
export const GOOGLE_MODELS: readonly ModelInfo[] = [
  gemini('gemini-3.8-flash', 'Gemini 3.8 Flash', prices(0.75, 3.75, 0.075), LEVEL, { note: 'introductory price through 2026-12-31 ($1.50 / $7.50 from 2027)' }),
  gemini('gemini-3.6-flash', 'Gemini 3.6 Flash', prices(0.75, 3.75, 0.075), LEVEL, { note: 'introductory price through 2026-12-31 ($1.50 / $7.50 from 2027)' }),
  gemini('gemini-3.5-flash-lite', 'Gemini 3.5 Flash-Lite', prices(0.3, 2.5, 0.03), LEVEL),
  gemini('gemini-3.1-pro-preview', 'Gemini 3.1 Pro (preview)', prices(2, 12, 0.2), LEVEL, { longContext: { above: 200_000, prices: prices(4, 18, 0.4) } }),
  gemini('gemini-2.5-pro', 'Gemini 2.5 Pro', prices(1.25, 10, 0.125), BUDGET, { longContext: { above: 200_000, prices: prices(2.5, 15, 0.25) } }),
  gemini('gemini-2.5-flash', 'Gemini 2.5 Flash', prices(0.3, 2.5, 0.03), BUDGET),
  gemini('gemini-2.5-flash-lite', 'Gemini 2.5 Flash-Lite', prices(0.1, 0.4, 0.01), BUDGET),
];
