import { createModelCatalog, type ModelCatalog } from '../catalog/model-catalog.js';
import type { ModelInfo } from '../catalog/model-info.js';
import type { Pricing } from '../catalog/usage-cost.js';
import type { ProviderPreset } from '../provider-presets.js';
import type { ApiKeyFunction, ConnectionOptions, ProviderEnv } from '../provider-options.js';
import { resolveApiKey } from './api-key.js';
import { createScrubber, type Scrubber } from './secret-scrubber.js';
import { StreamFailure } from './stream-runner.js';

/** What every vendor provider resolves once, when it is created. */
export interface ProviderContext {
  /** The provider name (`openai`, `ollama`). */
  readonly name: string;
  readonly preset: ProviderPreset;
  /**
   * The API key of one request (call it for each): the fixed key, or what the `apiKey` function
   * returns now; `undefined` for a server that needs none. Rejects with a {@link StreamFailure}
   * (`auth`) when the function throws or returns no key. Never logged.
   */
  key(): Promise<string | undefined>;
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
  const source = options.apiKey;
  const fixed = typeof source === 'function' ? undefined : resolveApiKey(preset, source, options.env ?? processEnv());
  const baseUrl = (options.baseUrl ?? preset.baseUrl)?.replace(/\/+$/, '');
  if (baseUrl === undefined || baseUrl === '') throw missingBaseUrl();
  const catalog: ModelCatalog = options.catalog ?? createModelCatalog();
  // The keys to scrub from errors: the fixed one, or the latest few a key function returned.
  const secrets: (string | undefined)[] = [fixed];
  const scrub = createScrubber(secrets);
  const vendor = preset.catalog;
  const modelInfo = (model: string): ModelInfo | undefined => (vendor === undefined ? undefined : catalog.find(vendor, model));
  return {
    name: preset.name,
    preset,
    key: typeof source === 'function' ? () => keyFrom(source, preset.name, secrets) : () => Promise.resolve(fixed),
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

/** How many keys from a key function are remembered for scrubbing (a server may echo an older one). */
const REMEMBERED_KEYS = 4;

async function keyFrom(source: ApiKeyFunction, provider: string, secrets: (string | undefined)[]): Promise<string> {
  let key: unknown;
  try {
    key = await source();
  } catch (error) {
    throw new StreamFailure({
      kind: 'auth',
      message: `the ${provider} apiKey function failed: ${error instanceof Error ? error.message : String(error)}`,
      retryable: false,
    });
  }
  if (typeof key !== 'string' || key === '')
    throw new StreamFailure({ kind: 'auth', message: `the ${provider} apiKey function returned no key`, retryable: false });
  if (!secrets.includes(key)) {
    secrets.push(key);
    if (secrets.length > REMEMBERED_KEYS) secrets.splice(0, secrets.length - REMEMBERED_KEYS);
  }
  return key;
}
