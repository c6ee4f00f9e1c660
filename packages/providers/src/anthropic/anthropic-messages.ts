import type { AssistantMessage, LlmMessage, UserContent } from '@troupe/core';
import type { ContentBlockParam, ImageBlockParam, MessageParam, TextBlockParam, ToolResultBlockParam } from '@anthropic-ai/sdk/resources/messages/messages';

const IMAGE_TYPES = ['image/jpeg', 'image/png', 'image/gif', 'image/webp'] as const;
type ImageType = (typeof IMAGE_TYPES)[number];

function isImageType(mimeType: string): mimeType is ImageType {
  return (IMAGE_TYPES as readonly string[]).includes(mimeType);
}

/** Anthropic tool-use ids must match `^[a-zA-Z0-9_-]+$`; ids from other vendors (`call_x|fc_y`) are mapped, the same way for calls and results. */
export function anthropicToolId(id: string): string {
  const cleaned = id.replace(/[^a-zA-Z0-9_-]/g, '_').slice(0, 64);
  return cleaned === '' ? 'toolu_' : cleaned;
}

function userBlocks(content: readonly UserContent[]): (TextBlockParam | ImageBlockParam)[] {
  return content.map((part) => {
    if (part.type === 'text') return { type: 'text', text: part.text };
    if (isImageType(part.mimeType)) return { type: 'image', source: { type: 'base64', media_type: part.mimeType, data: part.data } };
    return { type: 'text', text: `[an image of type ${part.mimeType} was left out: the API takes jpeg, png, gif and webp]` };
  });
}

function assistantBlocks(message: AssistantMessage, sameModel: boolean): ContentBlockParam[] {
  const blocks: ContentBlockParam[] = [];
  for (const part of message.content) {
    if (part.type === 'thinking') {
      // Thinking blocks go back unmodified, and only to the model that signed them.
      if (!sameModel || part.signature === undefined || part.signature === '') continue;
      blocks.push(
        part.redacted === true ? { type: 'redacted_thinking', data: part.signature } : { type: 'thinking', thinking: part.thinking, signature: part.signature },
      );
    } else if (part.type === 'text') {
      if (part.text !== '') blocks.push({ type: 'text', text: part.text });
    } else {
      blocks.push({ type: 'tool_use', id: anthropicToolId(part.id), name: part.name, input: part.arguments });
    }
  }
  return blocks;
}

/**
 * The Messages API history: user turns (text and base64 images), assistant turns (thinking
 * blocks with their signatures, only for messages this model produced; text; tool uses), and
 * tool results merged into the user turn that follows the tool uses (with their images and
 * `is_error`). Empty assistant turns are left out.
 */
export function anthropicMessages(history: readonly LlmMessage[], producedHere: (message: AssistantMessage) => boolean): MessageParam[] {
  const out: MessageParam[] = [];
  // The user turn being built from tool results (and a user message right after them).
  let userTurn: ContentBlockParam[] | undefined;
  const flush = (): void => {
    if (userTurn !== undefined && userTurn.length > 0) out.push({ role: 'user', content: userTurn });
    userTurn = undefined;
  };
  for (const message of history) {
    if (message.role === 'toolResult') {
      userTurn ??= [];
      const content = userBlocks(message.content);
      const result: ToolResultBlockParam = {
        type: 'tool_result',
        tool_use_id: anthropicToolId(message.toolCallId),
        content: content.length === 0 ? '' : content,
      };
      if (message.isError) result.is_error = true;
      userTurn.push(result);
    } else if (message.role === 'user') {
      const blocks: ContentBlockParam[] = typeof message.content === 'string' ? [{ type: 'text', text: message.content }] : userBlocks(message.content);
      if (userTurn !== undefined) {
        userTurn.push(...blocks);
        flush();
      } else {
        out.push({ role: 'user', content: typeof message.content === 'string' ? message.content : blocks });
      }
    } else {
      flush();
      const blocks = assistantBlocks(message, producedHere(message));
      if (blocks.length > 0) out.push({ role: 'assistant', content: blocks });
    }
  }
  flush();
  return out;
}
