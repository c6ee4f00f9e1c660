import { ProviderConfigError, ProviderErrorCode } from '../provider-error.js';
import type { ProviderPreset } from '../provider-presets.js';
import type { ProviderEnv } from '../provider-options.js';

/**
 * The API key of a provider: `apiKey` when given, else the first of the preset's environment
 * variables that is set. Throws {@link ProviderConfigError} `missing_api_key`, naming the
 * variables, when the provider needs a key and none is found. The key itself never appears in
 * the error.
 */
export function resolveApiKey(preset: ProviderPreset, apiKey: string | undefined, env: ProviderEnv): string | undefined {
  if (apiKey !== undefined && apiKey.length > 0) return apiKey;
  for (const name of preset.keyEnv) {
    const value = Object.hasOwn(env, name) ? env[name] : undefined;
    if (value !== undefined && value.length > 0) return value;
  }
  if (!preset.keyRequired) return undefined;
  const names = preset.keyEnv.join(' or ');
  throw new ProviderConfigError(
    ProviderErrorCode.MissingApiKey,
    `the ${preset.name} provider needs an API key: set ${names}, or give apiKey in the model's options (apiKey: \${${preset.keyEnv[0] ?? 'API_KEY'}})`,
    { data: { provider: preset.name, env: [...preset.keyEnv] } },
  );
}
