import type { ModelSpec } from './model-spec.js';
import { ProviderConfigError } from './provider-error.js';
import type { ProviderEnv } from './provider-options.js';
import { providerPreset } from './provider-presets.js';
import { resolveApiKey } from './shared/api-key.js';

/** What would stop a provider from connecting: `kind` says whether the environment (`apiKey`) or the config (`baseUrl`) lacks it. */
export interface ConnectionProblem {
  kind: 'apiKey' | 'baseUrl';
  message: string;
}

/**
 * What would stop {@link createProvider} from connecting a spec, said the way its error would say
 * it, or `undefined` when nothing would: a missing API key (naming the variables to set) or a
 * missing base URL. Lets a config loader report the problem at the line that names the model,
 * before anything runs (or only warn of a missing key where nothing will run). Unknown providers
 * are not its business (see `parseModelSpec`).
 */
export function connectionProblem(spec: ModelSpec, options: { apiKey?: string; baseUrl?: string; env: ProviderEnv }): ConnectionProblem | undefined {
  const preset = providerPreset(spec.provider);
  if (preset === undefined || preset.api === 'scripted') return undefined;
  try {
    resolveApiKey(preset, options.apiKey, options.env);
  } catch (error) {
    if (error instanceof ProviderConfigError) return { kind: 'apiKey', message: error.message };
    throw error;
  }
  if (options.baseUrl === undefined && preset.baseUrl === undefined) {
    return { kind: 'baseUrl', message: `the ${preset.name} provider needs a base URL: give baseUrl (for example http://127.0.0.1:8000/v1)` };
  }
  return undefined;
}
