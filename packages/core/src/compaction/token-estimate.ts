/**
 * The agent's token estimate: about one token per four characters, images by their size, a few
 * tokens of framing per message. Coarse on purpose and cheap: it only has to see an overflow
 * coming, and the usage a model reports corrects it at every reply.
 */
import type { Message, UserContent } from '../messages.js';
import type { ProviderRequest } from '../provider.js';

const CHARS_PER_TOKEN = 4;

/** Tokens of an image: one per 750 bytes, between 85 and 16,000 (what vendors charge, roughly). */
function imageTokens(base64: string): number {
  return Math.min(16_000, Math.max(85, Math.ceil((base64.length * 3) / 4 / 750)));
}

function userContentTokens(content: string | readonly UserContent[]): number {
  if (typeof content === 'string') return Math.ceil(content.length / CHARS_PER_TOKEN);
  let chars = 0;
  let images = 0;
  for (const part of content) {
    if (part.type === 'text') chars += part.text.length;
    else images += imageTokens(part.data);
  }
  return Math.ceil(chars / CHARS_PER_TOKEN) + images;
}

/** Estimated tokens of one message. */
export function messageTokens(message: Message): number {
  switch (message.role) {
    case 'user':
    case 'custom':
      return 4 + userContentTokens(message.content);
    case 'toolResult':
      return 8 + Math.ceil(message.toolName.length / CHARS_PER_TOKEN) + userContentTokens(message.content);
    case 'assistant': {
      let chars = 0;
      for (const part of message.content) {
        if (part.type === 'text') chars += part.text.length;
        else if (part.type === 'thinking') chars += part.thinking.length;
        else chars += part.name.length + (part.rawArguments ?? JSON.stringify(part.arguments)).length;
      }
      return 4 + Math.ceil(chars / CHARS_PER_TOKEN);
    }
  }
}

/** Estimated tokens of messages. */
export function messagesTokens(messages: readonly Message[], from = 0): number {
  let tokens = 0;
  for (let i = from; i < messages.length; i++) tokens += messageTokens(messages[i] as Message);
  return tokens;
}

/** Characters of tool definition lists, by list: a tool set hands out the same list until it changes. */
const toolChars = new WeakMap<object, number>();

/** Estimated tokens of what a request sends besides its messages: the system prompt and the tool definitions. */
export function requestOverheadTokens(request: Pick<ProviderRequest, 'systemPrompt' | 'tools'>): number {
  let tools = toolChars.get(request.tools);
  if (tools === undefined) {
    tools = request.tools.length === 0 ? 0 : JSON.stringify(request.tools).length;
    toolChars.set(request.tools, tools);
  }
  return Math.ceil(((request.systemPrompt?.length ?? 0) + tools) / CHARS_PER_TOKEN);
}
