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

/**
 * Returns `a + b`: a new object, or, when one side is zero, the other one itself. Usages are
 * values nothing changes once made, so a run's first usage shares its first reply's (each of
 * 10,000 waiting runs kept two more copies of it, in its context and its handle).
 */
export function addUsage(a: Usage, b: Usage): Usage {
  if (isZero(a)) return b;
  if (isZero(b)) return a;
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

/** Whether `usage` adds nothing: no tokens, no cost, and nothing unknown or reasoned. */
function isZero(usage: Usage): boolean {
  const { cost } = usage;
  return (
    usage.input === 0 &&
    usage.output === 0 &&
    usage.cacheRead === 0 &&
    usage.cacheWrite === 0 &&
    usage.totalTokens === 0 &&
    usage.reasoning === undefined &&
    cost.input === 0 &&
    cost.output === 0 &&
    cost.cacheRead === 0 &&
    cost.cacheWrite === 0 &&
    cost.total === 0 &&
    cost.unknown === undefined
  );
}
