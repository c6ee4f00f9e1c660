export { createScriptedProvider } from '@troupe/core/testing';
export { createProvider } from './create-provider.js';
export { availableProviders, DEFAULT_SCRIPTED_MODEL, formatModelSpec, parseModelSpec } from './model-spec.js';
export { ProviderConfigError, ProviderErrorCode } from './provider-error.js';

export type { ScriptedFailure, ScriptedProvider, ScriptedProviderOptions, ScriptedReply, ScriptedToolCall, ScriptStep } from '@troupe/core/testing';
export type { CreateProviderOptions } from './create-provider.js';
export type { ModelSpec } from './model-spec.js';
