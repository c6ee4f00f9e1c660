import { TroupeError } from '@troupe/core';

/** Stable error codes of the providers package. */
export const ProviderErrorCode = {
  /** A `provider:model` string that does not parse (empty provider or model name). */
  InvalidModelSpec: 'invalid_model_spec',
  /** A provider name this build of Troupe does not have. */
  UnknownProvider: 'unknown_provider',
  /** A provider was asked for with options it cannot work with (a scripted model without a script, no base URL). */
  InvalidProviderOptions: 'invalid_provider_options',
  /** A provider that needs an API key found none (neither the option nor its environment variable). */
  MissingApiKey: 'missing_api_key',
} as const;

/** One of the {@link ProviderErrorCode} values. */
export type ProviderErrorCode = (typeof ProviderErrorCode)[keyof typeof ProviderErrorCode];

/** Thrown when a model spec or a provider cannot be resolved; `code` says why. Messages never contain an API key. */
export class ProviderConfigError extends TroupeError {}
