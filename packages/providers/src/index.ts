export { createScriptedProvider } from '@troupe/core/testing';
export { builtinModels, createModelCatalog } from './catalog/model-catalog.js';
export { modelInfoOf } from './catalog/model-info-of.js';
export { usageWithCost } from './catalog/usage-cost.js';
export { connectionProblem } from './connection-problem.js';
export { createProvider } from './create-provider.js';
export { availableProviders, DEFAULT_SCRIPTED_MODEL, formatModelSpec, parseModelSpec } from './model-spec.js';
export { ProviderConfigError, ProviderErrorCode } from './provider-error.js';
export { PROVIDER_PRESETS, providerPreset } from './provider-presets.js';

export type { ScriptedFailure, ScriptedProvider, ScriptedProviderOptions, ScriptedReply, ScriptedToolCall, ScriptStep } from '@troupe/core/testing';
export type { ModelCatalog } from './catalog/model-catalog.js';
export type { ConnectionProblem } from './connection-problem.js';
export type { CatalogVendor, ModelInfo, ModelPrices, ThinkingStyle } from './catalog/model-info.js';
export type { Pricing, TokenCounts } from './catalog/usage-cost.js';
export type { CreateProviderOptions } from './create-provider.js';
export type { ModelSpec } from './model-spec.js';
export type { AnthropicCacheOptions, AnthropicOptions, ApiKeyFunction, ConnectionOptions, ProviderEnv } from './provider-options.js';
export type { ProviderApi, ProviderPreset } from './provider-presets.js';
