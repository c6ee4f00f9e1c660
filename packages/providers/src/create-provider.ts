import type { Clock, Provider } from '@troupe/core';
import { createScriptedProvider, type ScriptStep } from '@troupe/core/testing';
import { availableProviders, type ModelSpec } from './model-spec.js';
import { ProviderConfigError, ProviderErrorCode } from './provider-error.js';

/** What {@link createProvider} needs besides the spec. Each provider reads the fields it uses. */
export interface CreateProviderOptions {
  /** The steps a `scripted` provider replays. Required for `scripted`. */
  script?: readonly ScriptStep[];
  /** The clock a `scripted` provider waits on for `delayMs`. Default: the system clock. */
  clock?: Clock;
}

/**
 * Creates the provider a parsed spec names. Each call returns a new instance (a scripted
 * provider starts at the first step of its script).
 *
 * Throws {@link ProviderConfigError}: `unknown_provider` for a provider this build does not have,
 * `invalid_provider_options` for a scripted model without a script.
 */
export function createProvider(spec: ModelSpec, options: CreateProviderOptions = {}): Provider {
  switch (spec.provider) {
    case 'scripted': {
      if (options.script === undefined) {
        throw new ProviderConfigError(ProviderErrorCode.InvalidProviderOptions, `the scripted model "${spec.model}" needs a script`, { data: { spec } });
      }
      return createScriptedProvider(options.script, options.clock === undefined ? {} : { clock: options.clock });
    }
    default: {
      const available = availableProviders();
      throw new ProviderConfigError(
        ProviderErrorCode.UnknownProvider,
        `unknown provider "${spec.provider}": available providers: ${available.join(', ')} (vendor providers come in a later release)`,
        { data: { provider: spec.provider, available } },
      );
    }
  }
}
