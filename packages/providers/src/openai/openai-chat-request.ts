import type { ProviderRequest } from '@troupe/core';
import type { ChatCompletionCreateParamsStreaming } from 'openai/resources/chat/completions';
import type { ReasoningEffort } from 'openai/resources/shared';
import type { ProviderContext } from '../shared/provider-context.js';
import { openAIEffort } from '../shared/thinking.js';
import { chatMessages } from './openai-chat-messages.js';

/**
 * The streaming Chat Completions request for a core request. OpenAI itself gets
 * `max_completion_tokens`; OpenAI-compatible servers get the older `max_tokens` most of them read.
 * Usage is asked for in the last chunk (`stream_options.include_usage`).
 */
export function chatRequest(request: ProviderRequest, ctx: ProviderContext): ChatCompletionCreateParamsStreaming {
  const params: ChatCompletionCreateParamsStreaming = {
    model: request.model,
    messages: chatMessages(request.systemPrompt, request.messages),
    stream: true,
    stream_options: { include_usage: true },
  };
  if (request.tools.length > 0) {
    params.tools = request.tools.map((tool) => ({
      type: 'function',
      function: { name: tool.name, description: tool.description, parameters: tool.parameters },
    }));
  }
  if (request.maxTokens !== undefined) {
    if (ctx.preset.catalog === 'openai') params.max_completion_tokens = request.maxTokens;
    else params.max_tokens = request.maxTokens;
  }
  if (request.temperature !== undefined) params.temperature = request.temperature;
  if (request.topP !== undefined) params.top_p = request.topP;
  const effort = openAIEffort(request.thinking, ctx.modelInfo(request.model)?.thinking);
  if (effort !== undefined) params.reasoning_effort = effort as ReasoningEffort;
  return params;
}
