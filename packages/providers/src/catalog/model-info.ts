/** The vendors whose models the catalog knows. */
export type CatalogVendor = 'openai' | 'anthropic' | 'google';

/** US dollars per million tokens. `cacheWrite` is what writing a prompt-cache entry costs (the input price where the vendor charges nothing extra). */
export interface ModelPrices {
  input: number;
  output: number;
  cacheRead: number;
  cacheWrite: number;
}

/**
 * How a model is told how hard to think:
 * - `none`: it does not reason (thinking levels are ignored);
 * - `effort`: OpenAI's `reasoning.effort`, one of `efforts`;
 * - `budget`: a token budget (Anthropic's manual extended thinking, Gemini 2.5's `thinkingBudget`);
 * - `adaptive`: Anthropic's adaptive thinking with an effort, one of `efforts`; `alwaysOn` models cannot turn it off;
 * - `level`: Gemini 3's `thinkingLevel`.
 */
export type ThinkingStyle =
  | { kind: 'none' }
  | { kind: 'effort'; efforts: readonly string[] }
  | { kind: 'budget' }
  | { kind: 'adaptive'; alwaysOn: boolean; efforts: readonly string[] }
  | { kind: 'level' };

/** One model of the catalog. Plain data. */
export interface ModelInfo {
  vendor: CatalogVendor;
  /** The model id the vendor's API takes (`claude-sonnet-4-5`). */
  id: string;
  /** Human-readable name. */
  name: string;
  /** Tokens of input plus output the model can attend to. */
  contextWindow: number;
  /** Most output tokens one reply may have. */
  maxOutput: number;
  prices: ModelPrices;
  /** Prices of the whole request when its prompt (input + cache read + cache write) is longer than `above` tokens. */
  longContext?: { above: number; prices: ModelPrices };
  thinking: ThinkingStyle;
  /** A note shown by `troupe models` (promotional prices, deprecation). */
  note?: string;
}

/** Prices of a model, `factor` times each. */
export function scalePrices(prices: ModelPrices, factor: { input: number; output: number }): ModelPrices {
  return {
    input: prices.input * factor.input,
    output: prices.output * factor.output,
    cacheRead: prices.cacheRead * factor.input,
    cacheWrite: prices.cacheWrite * factor.input,
  };
}
