import type { Clock, Provider } from '@troupe/core';
import { createScriptedProvider, type ScriptStep } from '@troupe/core/testing';
import { createAnthropicProvider } from './anthropic/anthropic-provider.js';
import { createGeminiProvider } from './google/gemini-provider.js';
import { availableProviders, type ModelSpec } from './model-spec.js';
import { createOpenAIChatProvider } from './openai/openai-chat-provider.js';
import { createOpenAIResponsesProvider } from './openai/openai-responses-provider.js';
import { ProviderConfigError, ProviderErrorCode } from './provider-error.js';
import type { AnthropicOptions } from './provider-options.js';
import { providerPreset } from './provider-presets.js';
import { createProviderContext } from './shared/provider-context.js';

/**
 * What {@link createProvider} needs besides the spec. Each provider reads the fields it uses:
 * `script` and `clock` the scripted one; `apiKey`, `baseUrl`, `headers`, `env`, `catalog`, `now`
 * the vendor ones; `cache` Anthropic.
 */
export interface CreateProviderOptions extends AnthropicOptions {
  /** The steps a `scripted` provider replays. Required for `scripted`. */
  script?: readonly ScriptStep[];
  /** The clock a `scripted` provider waits on for `delayMs`. Default: the system clock. */
  clock?: Clock;
}

/**
 * Creates the provider a parsed spec names: `scripted`, `openai` (Responses API), `openai-chat`,
 * `anthropic`, `google`/`gemini`, `openai-compatible` (needs `baseUrl`) and the OpenAI-compatible
 * presets (`ollama`, `lmstudio`, `llamacpp`, `vllm`, `openrouter`, `groq`, `together`). Each call
 * returns a new instance; the model is given per request.
 *
 * Throws {@link ProviderConfigError}: `unknown_provider` for a name this build does not have,
 * `missing_api_key` (naming the environment variable) when a vendor needs a key and none is set,
 * `invalid_provider_options` for a scripted model without a script or an `openai-compatible`
 * one without a base URL.
 */
export function createProvider(spec: ModelSpec, options: CreateProviderOptions = {}): Provider {
  const preset = providerPreset(spec.provider);
  if (preset === undefined) {
    const available = availableProviders();
    throw new ProviderConfigError(ProviderErrorCode.UnknownProvider, `unknown provider "${spec.provider}": available providers: ${available.join(', ')}`, {
      data: { provider: spec.provider, available },
    });
  }
  if (preset.api === 'scripted') {
    if (options.script === undefined) {
      throw new ProviderConfigError(ProviderErrorCode.InvalidProviderOptions, `the scripted model "${spec.model}" needs a script`, { data: { spec } });
    }
    // Nothing here reads the requests a scripted model saw: keeping a copy of each was memory per agent and turn.
    return createScriptedProvider(options.script, options.clock === undefined ? { recordRequests: false } : { clock: options.clock, recordRequests: false });
  }
  const ctx = createProviderContext(
    preset,
    options,
    () =>
      new ProviderConfigError(
        ProviderErrorCode.InvalidProviderOptions,
        `the ${preset.name} provider needs a base URL: give baseUrl (for example http://127.0.0.1:8000/v1)`,
        {
          data: { provider: preset.name },
        },
      ),
  );
  switch (preset.api) {
    case 'openai-chat':
      return createOpenAIChatProvider(ctx);
    case 'openai-responses':
      return createOpenAIResponsesProvider(ctx);
    case 'anthropic':
      return createAnthropicProvider(ctx, options.cache === undefined ? {} : { cache: options.cache });
    case 'gemini':
      return createGeminiProvider(ctx);
  }
}
