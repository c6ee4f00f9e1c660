import { scalePrices, type ModelInfo, type ModelPrices } from './model-info.js';

/*
 * OpenAI models, read off developers.openai.com/api/docs/models (model pages and "Compare models")
 * in November 2026. Prompts over 272K input tokens cost 2x input and 1.5x output for the whole
 * request on the 1M-context GPT-5.4+ models. Cache writes: 1.25x input where the page says so,
 * else the input price (OpenAI's automatic caching reports no write tokens).
 */

const GPT_5_6_EFFORTS = ['none', 'low', 'medium', 'high', 'xhigh', 'max'] as const;
const GPT_5_EFFORTS = ['none', 'low', 'medium', 'high', 'xhigh'] as const;

function prices(input: number, cacheRead: number, output: number, cacheWrite = input): ModelPrices {
  return { input, output, cacheRead, cacheWrite };
}

function gpt(id: string, name: string, p: ModelPrices, options: { contextWindow?: number; efforts?: readonly string[]; note?: string } = {}): ModelInfo {
  const contextWindow = options.contextWindow ?? 1_050_000;
  const info: ModelInfo = {
    vendor: 'openai',
    id,
    name,
    contextWindow,
    maxOutput: 128_000,
    prices: p,
    thinking: { kind: 'effort', efforts: options.efforts ?? GPT_5_EFFORTS },
  };
  if (contextWindow > 272_000) info.longContext = { above: 272_000, prices: scalePrices(p, { input: 2, output: 1.5 }) };
  if (options.note !== undefined) info.note = options.note;
  return info;
}

/** The OpenAI part of the catalog. */
export const OPENAI_MODELS: readonly ModelInfo[] = [
  gpt('gpt-5.6-sol', 'GPT-5.6 Sol', prices(4, 0.4, 20, 5), { efforts: GPT_5_6_EFFORTS, note: 'promotional price (published through at least 2026-11-21)' }),
  gpt('gpt-5.6-terra', 'GPT-5.6 Terra', prices(2, 0.2, 12, 2.5), { efforts: GPT_5_6_EFFORTS }),
  gpt('gpt-5.6-luna', 'GPT-5.6 Luna', prices(0.2, 0.02, 1.2, 0.25), { efforts: GPT_5_6_EFFORTS }),
  gpt('gpt-5.5', 'GPT-5.5', prices(5, 0.5, 30)),
  gpt('gpt-5.4', 'GPT-5.4', prices(2.5, 0.25, 15)),
  gpt('gpt-5.4-mini', 'GPT-5.4 mini', prices(0.75, 0.075, 4.5), { contextWindow: 400_000 }),
  gpt('gpt-5.4-nano', 'GPT-5.4 nano', prices(0.2, 0.02, 1.25), { contextWindow: 400_000 }),
  { vendor: 'openai', id: 'gpt-4.1', name: 'GPT-4.1', contextWindow: 1_047_576, maxOutput: 32_768, prices: prices(2, 0.5, 8), thinking: { kind: 'none' } },
  {
    vendor: 'openai',
    id: 'gpt-4.1-mini',
    name: 'GPT-4.1 mini',
    contextWindow: 1_047_576,
    maxOutput: 32_768,
    prices: prices(0.4, 0.1, 1.6),
    thinking: { kind: 'none' },
  },
];
