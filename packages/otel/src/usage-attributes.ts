import type { Attributes } from '@opentelemetry/api';
import type { Usage } from '@troupe/core';
import { GenAi, TroupeAttr } from './semconv.js';

/**
 * The conventions' usage attributes of `usage`. Troupe counts cached prompt tokens apart from
 * `input` (as Anthropic reports them); the conventions' input tokens include them.
 */
export function usageAttributes(usage: Usage): Attributes {
  const attributes: Attributes = {
    [GenAi.usageInputTokens]: inputTokens(usage),
    [GenAi.usageOutputTokens]: usage.output,
  };
  addUsageDetails(attributes, usage);
  return attributes;
}

/** Adds to `attributes` the parts of `usage` beyond input and output tokens: cache, reasoning and cost, where there are any. */
export function addUsageDetails(attributes: Attributes, usage: Usage): void {
  if (usage.cacheRead > 0) attributes[GenAi.usageCacheReadInputTokens] = usage.cacheRead;
  if (usage.cacheWrite > 0) attributes[GenAi.usageCacheCreationInputTokens] = usage.cacheWrite;
  if (usage.reasoning !== undefined) attributes[GenAi.usageReasoningOutputTokens] = usage.reasoning;
  if (usage.cost.unknown !== true) attributes[TroupeAttr.costUsd] = usage.cost.total;
}

/** The prompt tokens of `usage`, cached ones included. */
export function inputTokens(usage: Usage): number {
  return usage.input + usage.cacheRead + usage.cacheWrite;
}
