import type { ModelInfo, ModelPrices, ThinkingStyle } from './model-info.js';

/*
 * Anthropic models, read off platform.claude.com (model overviews and the pricing page) in
 * November 2026. `cacheWrite` is the 5-minute cache write price (1.25x input); a 1-hour write
 * (2x input) is billed by Anthropic at its own rate but counted here at the 5-minute one.
 */

/*
 * `output_config.effort` values: `xhigh` came with Claude Opus 4.7 and the Claude 5 models; Opus 4.6
 * and Sonnet 4.6 go from `high` to `max`. Haiku 5.5's page does not list `xhigh`, so it is left out.
 */
const EFFORTS = ['low', 'medium', 'high', 'xhigh', 'max'] as const;
const EFFORTS_NO_XHIGH = ['low', 'medium', 'high', 'max'] as const;
const ADAPTIVE: ThinkingStyle = { kind: 'adaptive', alwaysOn: false, efforts: EFFORTS };
const ADAPTIVE_NO_XHIGH: ThinkingStyle = { kind: 'adaptive', alwaysOn: false, efforts: EFFORTS_NO_XHIGH };
const ALWAYS_ON: ThinkingStyle = { kind: 'adaptive', alwaysOn: true, efforts: EFFORTS };
const BUDGET: ThinkingStyle = { kind: 'budget' };

function prices(input: number, output: number, cacheRead: number): ModelPrices {
  return { input, output, cacheRead, cacheWrite: input * 1.25 };
}

function claude(id: string, name: string, p: ModelPrices, thinking: ThinkingStyle, contextWindow = 1_000_000, maxOutput = 128_000): ModelInfo {
  return { vendor: 'anthropic', id, name, contextWindow, maxOutput, prices: p, thinking };
}

const haiku55 = claude('claude-haiku-5-5', 'Claude Haiku 5.5', prices(0.1, 0.5, 0.01), ADAPTIVE_NO_XHIGH);
haiku55.longContext = { above: 100_000, prices: prices(0.5, 2.5, 0.05) };

const sonnet45 = claude('claude-sonnet-4-5', 'Claude Sonnet 4.5', prices(3, 15, 0.3), BUDGET, 200_000, 64_000);
sonnet45.longContext = { above: 200_000, prices: prices(6, 22.5, 0.6) };

/** The Anthropic part of the catalog. */
export const ANTHROPIC_MODELS: readonly ModelInfo[] = [
  claude('claude-fable-5-1', 'Claude Fable 5.1', prices(10, 50, 0.25), ALWAYS_ON),
  claude('claude-opus-5-5', 'Claude Opus 5.5', prices(4, 20, 0.2), ALWAYS_ON),
  claude('claude-sonnet-5-5', 'Claude Sonnet 5.5', prices(2, 10, 0.1), ADAPTIVE),
  haiku55,
  claude('claude-opus-5', 'Claude Opus 5', prices(5, 25, 0.5), ADAPTIVE),
  claude('claude-sonnet-5', 'Claude Sonnet 5', prices(2, 10, 0.2), ADAPTIVE),
  claude('claude-opus-4-8', 'Claude Opus 4.8', prices(5, 25, 0.5), ADAPTIVE),
  claude('claude-opus-4-7', 'Claude Opus 4.7', prices(5, 25, 0.5), ADAPTIVE),
  claude('claude-opus-4-6', 'Claude Opus 4.6', prices(5, 25, 0.5), ADAPTIVE_NO_XHIGH),
  claude('claude-sonnet-4-6', 'Claude Sonnet 4.6', prices(3, 15, 0.3), ADAPTIVE_NO_XHIGH, 1_000_000, 64_000),
  claude('claude-opus-4-5', 'Claude Opus 4.5', prices(5, 25, 0.5), BUDGET, 200_000, 64_000),
  sonnet45,
  claude('claude-haiku-4-5', 'Claude Haiku 4.5', prices(1, 5, 0.1), BUDGET, 200_000, 64_000),
];
