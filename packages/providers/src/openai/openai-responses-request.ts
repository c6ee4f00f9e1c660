import type { ProviderRequest } from '@troupe/core';
import type { ReasoningEffort } from 'openai/resources/shared';
import type { ResponseCreateParamsStreaming } from 'openai/resources/responses/responses';
import type { ProviderContext } from '../shared/provider-context.js';
import { openAIEffort } from '../shared/thinking.js';
import { responsesInput } from './openai-responses-input.js';

/**
 * The streaming Responses request for a core request: stateless (`store: false`), so reasoning
 * models are asked for encrypted reasoning (`include: ['reasoning.encrypted_content']`) and a
 * reasoning summary, which Troupe sends back on later turns.
 */
export function responsesRequest(request: ProviderRequest, ctx: ProviderContext): ResponseCreateParamsStreaming {
  const self = `${ctx.name}:${request.model}`;
  const params: ResponseCreateParamsStreaming = {
    model: request.model,
    input: responsesInput(request.messages, (message) => message.model === self),
    stream: true,
    store: false,
  };
  if (request.systemPrompt !== undefined && request.systemPrompt !== '') params.instructions = request.systemPrompt;
  if (request.tools.length > 0) {
    params.tools = request.tools.map((tool) => ({
      type: 'function',
      name: tool.name,
      description: tool.description,
      parameters: tool.parameters,
      strict: false,
    }));
  }
  if (request.maxTokens !== undefined) params.max_output_tokens = request.maxTokens;
  const style = ctx.modelInfo(request.model)?.thinking;
  const reasons = style === undefined ? request.thinking !== undefined && request.thinking !== 'off' : style.kind === 'effort';
  if (request.temperature !== undefined && !reasons) params.temperature = request.temperature;
  if (request.topP !== undefined && !reasons) params.top_p = request.topP;
  const effort = openAIEffort(request.thinking, style);
  if (reasons) {
    params.reasoning = effort === undefined ? { summary: 'auto' } : { effort: effort as ReasoningEffort, summary: effort === 'none' ? null : 'auto' };
    params.include = ['reasoning.encrypted_content'];
  }
  return params;
}
