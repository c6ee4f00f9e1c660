import type { ModelSpec } from '../model-spec.js';
import { providerPreset } from '../provider-presets.js';
import { createModelCatalog, type ModelCatalog } from './model-catalog.js';
import type { ModelInfo } from './model-info.js';

/**
 * The catalog entry of a `provider:model` spec (context window, output limit, prices), or
 * `undefined` for a provider without a catalog (OpenAI-compatible servers) or a model the catalog
 * lacks. This is what the runtime reads to know a model's context window.
 */
export function modelInfoOf(spec: ModelSpec, catalog: ModelCatalog = createModelCatalog()): ModelInfo | undefined {
  const vendor = providerPreset(spec.provider)?.catalog;
  return vendor === undefined ? undefined : catalog.find(vendor, spec.model);
}
