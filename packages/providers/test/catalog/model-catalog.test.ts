/**
 * Proves the model catalog: every entry has a positive context window, output limit and prices;
 * ids are unique per vendor; a dated snapshot id finds its base model; `modelInfoOf` maps
 * provider names to vendors (none for OpenAI-compatible servers); and cost uses long-context
 * prices above their threshold, is zero and known for free local servers, and marked unknown
 * otherwise.
 */
import { describe, expect, it } from 'vitest';
import { builtinModels, createModelCatalog } from '../../src/catalog/model-catalog.js';
import { modelInfoOf } from '../../src/catalog/model-info-of.js';
import { usageWithCost } from '../../src/catalog/usage-cost.js';

describe('model catalog', () => {
  it('has sane entries for OpenAI, Anthropic and Google', () => {
    const models = builtinModels();
    for (const vendor of ['openai', 'anthropic', 'google']) expect(models.some((m) => m.vendor === vendor)).toBe(true);
    for (const m of models) {
      expect(m.contextWindow).toBeGreaterThan(0);
      expect(m.maxOutput).toBeGreaterThan(0);
      expect(m.maxOutput).toBeLessThanOrEqual(m.contextWindow);
      for (const price of Object.values(m.prices)) expect(price).toBeGreaterThan(0);
    }
    const keys = models.map((m) => `${m.vendor}:${m.id}`);
    expect(new Set(keys).size).toBe(keys.length);
  });

  it('finds dated snapshots by their base id', () => {
    const catalog = createModelCatalog();
    expect(catalog.find('anthropic', 'claude-sonnet-4-5-20250929')?.id).toBe('claude-sonnet-4-5');
    expect(catalog.find('openai', 'gpt-4.1-mini-2025-04-14')?.id).toBe('gpt-4.1-mini');
    expect(catalog.find('openai', 'gpt-9')).toBeUndefined();
  });

  it('maps provider specs to catalog entries', () => {
    expect(modelInfoOf({ provider: 'anthropic', model: 'claude-sonnet-4-5' })?.contextWindow).toBe(200_000);
    expect(modelInfoOf({ provider: 'openai-chat', model: 'gpt-4.1-mini' })?.vendor).toBe('openai');
    expect(modelInfoOf({ provider: 'gemini', model: 'gemini-2.5-flash' })?.contextWindow).toBe(1_048_576);
    expect(modelInfoOf({ provider: 'ollama', model: 'gpt-4.1-mini' })).toBeUndefined();
    expect(modelInfoOf({ provider: 'acme', model: 'x' })).toBeUndefined();
  });
});

describe('usageWithCost', () => {
  const tokens = { input: 300_000, output: 1000, cacheRead: 0, cacheWrite: 0 };

  it('uses long-context prices above the threshold', () => {
    const model = createModelCatalog().find('google', 'gemini-2.5-pro');
    if (model?.longContext === undefined) throw new Error('no long-context entry');
    const usage = usageWithCost(tokens, { kind: 'catalog', model });
    expect(usage.cost.input).toBeCloseTo((300_000 * model.longContext.prices.input) / 1e6, 12);
    const short = usageWithCost({ ...tokens, input: 1000 }, { kind: 'catalog', model });
    expect(short.cost.input).toBeCloseTo((1000 * model.prices.input) / 1e6, 12);
  });

  it('is free and known for local servers, zero and unknown otherwise', () => {
    expect(usageWithCost(tokens, { kind: 'free' }).cost).toEqual({ input: 0, output: 0, cacheRead: 0, cacheWrite: 0, total: 0 });
    expect(usageWithCost(tokens, { kind: 'unknown' }).cost).toEqual({ input: 0, output: 0, cacheRead: 0, cacheWrite: 0, total: 0, unknown: true });
    expect(usageWithCost(tokens, { kind: 'unknown' }).totalTokens).toBe(301_000);
  });
});
