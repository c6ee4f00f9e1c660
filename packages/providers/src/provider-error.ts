import { TroupeError } from '@troupe/core';

/** Stable error codes of the providers package. */
export const ProviderErrorCode = {
  /** A `provider:model` string that does not parse (empty provider or model name). */
  InvalidModelSpec: 'invalid_model_spec',
  /** A provider name this build of Troupe does not have. */
  UnknownProvider: 'unknown_provider',
  /** A provider was asked for with options it cannot work with (a scripted model without a script). */
  InvalidProviderOptions: 'invalid_provider_options',
} as const;

/** One of the {@link ProviderErrorCode} values. */
export type ProviderErrorCode = (typeof ProviderErrorCode)[keyof typeof ProviderErrorCode];

/** Thrown when a model spec or a provider cannot be resolved; `code` says why. */
export class ProviderConfigError extends TroupeError {}
