import type { AssistantMessage, LlmMessage, ProviderRequest, ThinkingLevel, UserContent } from '@troupe/core';
import type { ModelInfo } from '../catalog/model-info.js';
import { THINKING_BUDGETS } from '../shared/thinking.js';
import type { GeminiContent, GeminiPart, GeminiRequestBody } from './gemini-wire.js';

/** Ids Troupe made up for function calls that came without one; never sent back as ids. */
export const GENERATED_CALL_ID = 'gemini_';

function userParts(content: readonly UserContent[]): GeminiPart[] {
  return content.map((part) => (part.type === 'text' ? { text: part.text } : { inlineData: { mimeType: part.mimeType, data: part.data } }));
}

/**
 * The model turn of an assistant message. Thought signatures go back in the part they came with:
 * a thinking part with text keeps its own; a signature-only (redacted) thinking part belongs to
 * the part before it, or the next one when it came first. Signatures and thoughts are sent back
 * only to the model that made them.
 */
function modelParts(message: AssistantMessage, sameModel: boolean): GeminiPart[] {
  const parts: GeminiPart[] = [];
  let pending: string | undefined;
  const push = (part: GeminiPart): void => {
    if (pending !== undefined) part.thoughtSignature = pending;
    pending = undefined;
    parts.push(part);
  };
  for (const part of message.content) {
    if (part.type === 'thinking') {
      if (!sameModel || part.signature === undefined) continue;
      if (part.redacted === true || part.thinking === '') {
        const previous = parts.at(-1);
        if (previous !== undefined && previous.thoughtSignature === undefined) previous.thoughtSignature = part.signature;
        else pending = part.signature;
      } else {
        push({ text: part.thinking, thought: true, thoughtSignature: part.signature });
      }
    } else if (part.type === 'text') {
      if (part.text !== '') push({ text: part.text });
    } else {
      const call: GeminiPart['functionCall'] = { name: part.name, args: part.arguments };
      if (!part.id.startsWith(GENERATED_CALL_ID)) call.id = part.id;
      push({ functionCall: call });
    }
  }
  if (pending !== undefined) parts.push({ text: '', thoughtSignature: pending });
  return parts;
}

/** The `contents` of a history; consecutive tool results make one user turn, their images follow their responses. */
export function geminiContents(history: readonly LlmMessage[], producedHere: (message: AssistantMessage) => boolean): GeminiContent[] {
  const out: GeminiContent[] = [];
  for (const message of history) {
    if (message.role === 'user') {
      out.push({ role: 'user', parts: typeof message.content === 'string' ? [{ text: message.content }] : userParts(message.content) });
    } else if (message.role === 'assistant') {
      const parts = modelParts(message, producedHere(message));
      if (parts.length > 0) out.push({ role: 'model', parts });
    } else {
      const text = message.content
        .filter((part) => part.type === 'text')
        .map((part) => part.text)
        .join('\n');
      const response: GeminiPart['functionResponse'] = { name: message.toolName, response: message.isError ? { error: text } : { output: text } };
      if (!message.toolCallId.startsWith(GENERATED_CALL_ID)) response.id = message.toolCallId;
      const parts: GeminiPart[] = [{ functionResponse: response }, ...userParts(message.content.filter((part) => part.type === 'image'))];
      const last = out.at(-1);
      if (last?.role === 'user' && last.parts.some((part) => part.functionResponse !== undefined)) last.parts.push(...parts);
      else out.push({ role: 'user', parts });
    }
  }
  return out;
}

/**
 * `thinkingConfig` for a level: Gemini 3 models take `thinkingLevel` (`off` → `minimal`, the
 * least they allow; `xhigh` → `high`, the most); Gemini 2.5 models a `thinkingBudget` (`off` → 0,
 * or 128 on Pro, which cannot turn thinking off), capped at the model's most (32K on Pro, 24K on
 * Flash), so `xhigh` is the cap. Thought summaries are asked for unless thinking is off.
 */
export function geminiThinking(
  level: ThinkingLevel | undefined,
  model: string,
  info: ModelInfo | undefined,
): NonNullable<GeminiRequestBody['generationConfig']>['thinkingConfig'] {
  if (level === undefined) return undefined;
  const style = info?.thinking.kind ?? (model.startsWith('gemini-2') ? 'budget' : 'level');
  if (style === 'budget') {
    const pro = model.includes('pro');
    const budget = level === 'off' ? (pro ? 128 : 0) : Math.min(THINKING_BUDGETS[level], pro ? 32_768 : 24_576);
    return { thinkingBudget: budget, includeThoughts: level !== 'off' };
  }
  return { thinkingLevel: level === 'off' ? 'minimal' : level === 'xhigh' ? 'high' : level, includeThoughts: level !== 'off' };
}

/** The request body of `streamGenerateContent` for a core request. */
export function geminiRequest(request: ProviderRequest, self: string, info: ModelInfo | undefined): GeminiRequestBody {
  const body: GeminiRequestBody = { contents: geminiContents(request.messages, (message) => message.model === self) };
  if (request.systemPrompt !== undefined && request.systemPrompt !== '') body.systemInstruction = { parts: [{ text: request.systemPrompt }] };
  if (request.tools.length > 0) {
    body.tools = [
      { functionDeclarations: request.tools.map((tool) => ({ name: tool.name, description: tool.description, parametersJsonSchema: tool.parameters })) },
    ];
  }
  const config: NonNullable<GeminiRequestBody['generationConfig']> = {};
  if (request.maxTokens !== undefined) config.maxOutputTokens = request.maxTokens;
  if (request.temperature !== undefined) config.temperature = request.temperature;
  if (request.topP !== undefined) config.topP = request.topP;
  const thinking = geminiThinking(request.thinking, request.model, info);
  if (thinking !== undefined) config.thinkingConfig = thinking;
  if (Object.keys(config).length > 0) body.generationConfig = config;
  return body;
}
