import { createModelCatalog, type ModelCatalog } from '../catalog/model-catalog.js';
import type { ModelInfo } from '../catalog/model-info.js';
import type { Pricing } from '../catalog/usage-cost.js';
import type { ProviderPreset } from '../provider-presets.js';
import type { ConnectionOptions, ProviderEnv } from '../provider-options.js';
import { resolveApiKey } from './api-key.js';
import { createScrubber, type Scrubber } from './secret-scrubber.js';

/** What every vendor provider resolves once, when it is created. */
export interface ProviderContext {
  /** The provider name (`openai`, `ollama`). */
  readonly name: string;
  readonly preset: ProviderPreset;
  /** The API key, or `undefined` for a server that needs none. Never logged. */
  readonly apiKey: string | undefined;
  readonly baseUrl: string;
  readonly headers: Readonly<Record<string, string>>;
  readonly scrub: Scrubber;
  now(): number;
  /** The catalog entry of a model, if this provider's vendor has one for it. */
  modelInfo(model: string): ModelInfo | undefined;
  /** How calls to `model` are priced. */
  pricing(model: string): Pricing;
}

function processEnv(): ProviderEnv {
  return typeof process === 'undefined' ? {} : process.env;
}

/**
 * Resolves a preset and connection options: the key (throws `missing_api_key` when one is needed
 * and absent), the base URL (throws `invalid_provider_options` when the preset has none and none
 * is given), the catalog and a scrubber that knows the key.
 */
export function createProviderContext(preset: ProviderPreset, options: ConnectionOptions, missingBaseUrl: () => Error): ProviderContext {
  const apiKey = resolveApiKey(preset, options.apiKey, options.env ?? processEnv());
  const baseUrl = (options.baseUrl ?? preset.baseUrl)?.replace(/\/+$/, '');
  if (baseUrl === undefined || baseUrl === '') throw missingBaseUrl();
  const catalog: ModelCatalog = options.catalog ?? createModelCatalog();
  const scrub = createScrubber([apiKey]);
  const vendor = preset.catalog;
  const modelInfo = (model: string): ModelInfo | undefined => (vendor === undefined ? undefined : catalog.find(vendor, model));
  return {
    name: preset.name,
    preset,
    apiKey,
    baseUrl,
    headers: { ...options.headers },
    scrub,
    now: options.now ?? Date.now,
    modelInfo,
    pricing(model) {
      const info = modelInfo(model);
      if (info !== undefined) return { kind: 'catalog', model: info };
      return preset.local === true ? { kind: 'free' } : { kind: 'unknown' };
    },
  };
}
