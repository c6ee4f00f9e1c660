import { ProviderConfigError, ProviderErrorCode } from './provider-error.js';
import { PROVIDER_PRESETS } from './provider-presets.js';

/** A model named as `provider:model`, split. */
export interface ModelSpec {
  /** The provider name (`openai`, `scripted`). */
  provider: string;
  /** The model name as the provider knows it (`gpt-4.1-mini`). */
  model: string;
}

/** The model name `parseModelSpec('scripted')` gives, since a bare `scripted` names no model. */
export const DEFAULT_SCRIPTED_MODEL = 'default';

/** The provider names this build can create (a fresh array): `scripted`, the vendors and the OpenAI-compatible presets. */
export function availableProviders(): string[] {
  return PROVIDER_PRESETS.map((preset) => preset.name);
}

/**
 * Parses `provider:model` (`openai:gpt-4.1-mini`). The model part may itself contain `:`
 * (`ollama:qwen3:8b`). A bare `scripted` means `scripted:default`.
 *
 * Throws {@link ProviderConfigError}: `invalid_model_spec` when the provider or model part is
 * empty, `unknown_provider` (listing the available ones) when the provider is not one of
 * {@link availableProviders}.
 */
export function parseModelSpec(spec: string): ModelSpec {
  const trimmed = spec.trim();
  const colon = trimmed.indexOf(':');
  const provider = colon === -1 ? trimmed : trimmed.slice(0, colon);
  const model = colon === -1 ? '' : trimmed.slice(colon + 1);
  if (provider.length === 0) {
    throw new ProviderConfigError(ProviderErrorCode.InvalidModelSpec, `invalid model "${spec}": expected provider:model, for example openai:gpt-4.1-mini`, {
      data: { spec },
    });
  }
  const available = availableProviders();
  if (!available.includes(provider)) {
    throw new ProviderConfigError(ProviderErrorCode.UnknownProvider, `unknown provider "${provider}": available providers: ${available.join(', ')}`, {
      data: { provider, available },
    });
  }
  if (colon === -1 && provider === 'scripted') return { provider, model: DEFAULT_SCRIPTED_MODEL };
  if (model.length === 0) {
    throw new ProviderConfigError(ProviderErrorCode.InvalidModelSpec, `invalid model "${spec}": the model name after "${provider}:" is missing`, {
      data: { spec },
    });
  }
  return { provider, model };
}

/** Formats a spec back to `provider:model`. */
export function formatModelSpec(spec: ModelSpec): string {
  return `${spec.provider}:${spec.model}`;
}
