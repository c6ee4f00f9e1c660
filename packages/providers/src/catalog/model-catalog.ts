import { ANTHROPIC_MODELS } from './anthropic-models.js';
import { GOOGLE_MODELS } from './google-models.js';
import type { CatalogVendor, ModelInfo } from './model-info.js';
import { OPENAI_MODELS } from './openai-models.js';

/**
 * Models by vendor and id: context window, output limit, prices, how they think.
 *
 * Contract: lookups are synchronous, pure and never throw; entries are plain data that callers
 * must not mutate (`list` returns a fresh array of the same entries).
 */
export interface ModelCatalog {
  /**
   * The model `id` of `vendor`. A dated snapshot id (`claude-sonnet-4-5-20250929`,
   * `gpt-4.1-mini-2025-04-14`) finds its base model; `undefined` for a model the catalog lacks.
   */
  find(vendor: CatalogVendor, id: string): ModelInfo | undefined;
  /** Every model, grouped by vendor in catalog order. A fresh array. */
  list(): ModelInfo[];
}

/** A trailing `-20250929` or `-2025-04-14` snapshot date. */
const DATE_SUFFIX = /-(\d{8}|\d{4}-\d{2}-\d{2})$/;

/** The models Troupe ships with (OpenAI, Anthropic, Google), as a fresh array. */
export function builtinModels(): ModelInfo[] {
  return [...OPENAI_MODELS, ...ANTHROPIC_MODELS, ...GOOGLE_MODELS];
}

/** A catalog over `models` (default: {@link builtinModels}). Later entries with the same vendor and id win. */
export function createModelCatalog(models: readonly ModelInfo[] = builtinModels()): ModelCatalog {
  const byKey = new Map<string, ModelInfo>();
  for (const model of models) byKey.set(`${model.vendor}:${model.id}`, model);
  const list = [...byKey.values()];
  return {
    find(vendor, id) {
      return byKey.get(`${vendor}:${id}`) ?? byKey.get(`${vendor}:${id.replace(DATE_SUFFIX, '')}`);
    },
    list: () => [...list],
  };
}
