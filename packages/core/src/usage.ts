/** Token counts of one model call or a sum of several. */
export interface Usage {
  input: number;
  output: number;
  cacheRead: number;
  cacheWrite: number;
  totalTokens: number;
  /**
   * Of `output`, the tokens the model spent reasoning, where the vendor reports them (OpenAI
   * `reasoning_tokens`, Gemini `thoughtsTokenCount`); absent where it does not (Anthropic counts
   * thinking in its output tokens without a split).
   */
  reasoning?: number;
  /** Cost in US dollars; `undefined` parts mean the price is unknown. */
  cost: Cost;
}

/** Dollar cost, split like the token counts. `unknown: true` when some model had no price. */
export interface Cost {
  input: number;
  output: number;
  cacheRead: number;
  cacheWrite: number;
  total: number;
  unknown?: boolean;
}

/** A zero usage (a fresh object each call). */
export function emptyUsage(): Usage {
  return { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, totalTokens: 0, cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, total: 0 } };
}

/** Returns `a + b` as a new object. */
export function addUsage(a: Usage, b: Usage): Usage {
  const cost: Cost = {
    input: a.cost.input + b.cost.input,
    output: a.cost.output + b.cost.output,
    cacheRead: a.cost.cacheRead + b.cost.cacheRead,
    cacheWrite: a.cost.cacheWrite + b.cost.cacheWrite,
    total: a.cost.total + b.cost.total,
  };
  if (a.cost.unknown === true || b.cost.unknown === true) cost.unknown = true;
  const sum: Usage = {
    input: a.input + b.input,
    output: a.output + b.output,
    cacheRead: a.cacheRead + b.cacheRead,
    cacheWrite: a.cacheWrite + b.cacheWrite,
    totalTokens: a.totalTokens + b.totalTokens,
    cost,
  };
  if (a.reasoning !== undefined || b.reasoning !== undefined) sum.reasoning = (a.reasoning ?? 0) + (b.reasoning ?? 0);
  return sum;
}
