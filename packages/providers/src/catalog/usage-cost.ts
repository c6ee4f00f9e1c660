import type { Usage } from '@troupe/core';
import type { ModelInfo, ModelPrices } from './model-info.js';

/** Token counts of one call, split as the core's `Usage` splits them (`input` excludes cached tokens). */
export interface TokenCounts {
  input: number;
  output: number;
  cacheRead: number;
  cacheWrite: number;
  /** Of `output`, the reasoning tokens, when the vendor reports them. */
  reasoning?: number;
}

/** How a call's cost is known: from a catalog entry, free (a local server), or unknown. */
export type Pricing = { kind: 'catalog'; model: ModelInfo } | { kind: 'free' } | { kind: 'unknown' };

function pricesFor(model: ModelInfo, tokens: TokenCounts): ModelPrices {
  const prompt = tokens.input + tokens.cacheRead + tokens.cacheWrite;
  return model.longContext !== undefined && prompt > model.longContext.above ? model.longContext.prices : model.prices;
}

/** The usage of one call with its dollar cost; `cost.unknown` is set when the price is not known. */
export function usageWithCost(tokens: TokenCounts, pricing: Pricing): Usage {
  const usage: Usage = {
    input: tokens.input,
    output: tokens.output,
    cacheRead: tokens.cacheRead,
    cacheWrite: tokens.cacheWrite,
    totalTokens: tokens.input + tokens.output + tokens.cacheRead + tokens.cacheWrite,
    cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, total: 0 },
  };
  if (tokens.reasoning !== undefined) usage.reasoning = tokens.reasoning;
  if (pricing.kind === 'unknown') usage.cost.unknown = true;
  if (pricing.kind !== 'catalog') return usage;
  const prices = pricesFor(pricing.model, tokens);
  const cost = usage.cost;
  cost.input = (tokens.input * prices.input) / 1e6;
  cost.output = (tokens.output * prices.output) / 1e6;
  cost.cacheRead = (tokens.cacheRead * prices.cacheRead) / 1e6;
  cost.cacheWrite = (tokens.cacheWrite * prices.cacheWrite) / 1e6;
  cost.total = cost.input + cost.output + cost.cacheRead + cost.cacheWrite;
  return usage;
}
