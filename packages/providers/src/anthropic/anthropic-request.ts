import type { ProviderRequest, ThinkingLevel } from '@troupe/core';
import type { MessageCreateParamsStreaming, OutputConfig, ThinkingConfigParam, Tool } from '@anthropic-ai/sdk/resources/messages/messages';
import type { ModelInfo } from '../catalog/model-info.js';
import type { ProviderContext } from '../shared/provider-context.js';
import { nearestEffort, THINKING_BUDGETS } from '../shared/thinking.js';
import { anthropicMessages } from './anthropic-messages.js';
import { cacheMessages, cachedSystem, cacheTools, type CachePlan } from './anthropic-cache.js';

/** `max_tokens` when the request gives none: the model's limit up to 32K, 16K for a model the catalog lacks. */
function defaultMaxTokens(info: ModelInfo | undefined): number {
  return info === undefined ? 16_384 : Math.min(info.maxOutput, 32_000);
}

interface ThinkingParams {
  thinking?: ThinkingConfigParam;
  output_config?: OutputConfig;
  max_tokens: number;
}

/**
 * Thinking for a level. Adaptive models (Claude 4.6 and later) get `thinking: adaptive` with the
 * level as `output_config.effort`, the nearest the model has (`minimal` → `low`; `xhigh` → `high`
 * on Opus 4.6 and Sonnet 4.6, which lack it; `off` disables thinking where the model allows);
 * older and unknown models get manual thinking with a token budget (1K, 4K, 10K, 32K, 64K for
 * `xhigh`), `max_tokens` raised above the budget within the model's limit.
 */
export function anthropicThinking(level: ThinkingLevel | undefined, info: ModelInfo | undefined, maxTokens: number | undefined): ThinkingParams {
  const limit = info?.maxOutput ?? 128_000;
  let max = maxTokens ?? defaultMaxTokens(info);
  const style = info?.thinking;
  if (level === undefined) return { max_tokens: max };
  if (style?.kind === 'adaptive') {
    if (level === 'off') return style.alwaysOn ? { max_tokens: max } : { thinking: { type: 'disabled' }, max_tokens: max };
    const effort = (nearestEffort(level === 'minimal' ? 'low' : level, style.efforts) ?? 'high') as NonNullable<OutputConfig['effort']>;
    return { thinking: { type: 'adaptive', display: 'summarized' }, output_config: { effort }, max_tokens: max };
  }
  if (level === 'off') return { thinking: { type: 'disabled' }, max_tokens: max };
  let budget = THINKING_BUDGETS[level];
  if (max <= budget) max = Math.min(limit, budget + (maxTokens ?? 8192));
  if (budget >= max) budget = Math.max(1024, max - 1024);
  return { thinking: { type: 'enabled', budget_tokens: budget }, max_tokens: max };
}

/**
 * The streaming Messages request for a core request, with prompt-caching breakpoints per `plan`.
 * `temperature` and `topP` are not sent: the Messages API of this SDK version has no such parameters.
 */
export function anthropicRequest(request: ProviderRequest, ctx: ProviderContext, plan: CachePlan): MessageCreateParamsStreaming {
  const self = `${ctx.name}:${request.model}`;
  const info = ctx.modelInfo(request.model);
  const messages = anthropicMessages(request.messages, (message) => message.model === self);
  cacheMessages(messages, plan);
  const thinking = anthropicThinking(request.thinking, info, request.maxTokens);
  const params: MessageCreateParamsStreaming = { model: request.model, messages, max_tokens: thinking.max_tokens, stream: true };
  if (thinking.thinking !== undefined) params.thinking = thinking.thinking;
  if (thinking.output_config !== undefined) params.output_config = thinking.output_config;
  if (request.systemPrompt !== undefined && request.systemPrompt !== '') params.system = cachedSystem(request.systemPrompt, plan);
  if (request.tools.length > 0) {
    const tools: Tool[] = request.tools.map((tool) => ({ name: tool.name, description: tool.description, input_schema: tool.parameters as Tool.InputSchema }));
    cacheTools(tools, plan);
    params.tools = tools;
  }
  return params;
}
