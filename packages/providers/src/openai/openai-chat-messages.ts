import type { ImageContent, LlmMessage, UserContent } from '@troupe/core';
import type {
  ChatCompletionAssistantMessageParam,
  ChatCompletionContentPart,
  ChatCompletionMessageParam,
  ChatCompletionMessageToolCall,
} from 'openai/resources/chat/completions';

/** An image as a `data:` URL, the form OpenAI's APIs take inline images in. */
export function dataUrl(image: ImageContent): string {
  return `data:${image.mimeType};base64,${image.data}`;
}

function userParts(content: readonly UserContent[]): ChatCompletionContentPart[] {
  return content.map((part) => (part.type === 'text' ? { type: 'text', text: part.text } : { type: 'image_url', image_url: { url: dataUrl(part) } }));
}

function textOf(content: readonly UserContent[]): string {
  return content
    .filter((part) => part.type === 'text')
    .map((part) => part.text)
    .join('\n');
}

/**
 * The Chat Completions messages for a history. Thinking is not sent back (the API has no field
 * for it). Tool messages carry text only, so images a tool returned follow the tool messages of
 * that turn as one user message. Assistant messages with nothing to say are left out.
 */
export function chatMessages(systemPrompt: string | undefined, history: readonly LlmMessage[]): ChatCompletionMessageParam[] {
  const out: ChatCompletionMessageParam[] = [];
  if (systemPrompt !== undefined && systemPrompt !== '') out.push({ role: 'system', content: systemPrompt });
  let pendingImages: ChatCompletionContentPart[] = [];
  const flushImages = (): void => {
    if (pendingImages.length === 0) return;
    out.push({ role: 'user', content: [{ type: 'text', text: 'Images returned by the tools above:' }, ...pendingImages] });
    pendingImages = [];
  };
  for (const message of history) {
    if (message.role !== 'toolResult') flushImages();
    switch (message.role) {
      case 'user':
        out.push({ role: 'user', content: typeof message.content === 'string' ? message.content : userParts(message.content) });
        break;
      case 'assistant': {
        const text = message.content
          .filter((part) => part.type === 'text')
          .map((part) => part.text)
          .join('');
        const calls: ChatCompletionMessageToolCall[] = [];
        for (const part of message.content) {
          if (part.type === 'toolCall') calls.push({ id: part.id, type: 'function', function: { name: part.name, arguments: JSON.stringify(part.arguments) } });
        }
        if (text === '' && calls.length === 0) break;
        const param: ChatCompletionAssistantMessageParam = { role: 'assistant', content: text === '' ? null : text };
        if (calls.length > 0) param.tool_calls = calls;
        out.push(param);
        break;
      }
      case 'toolResult': {
        const images = message.content.filter((part) => part.type === 'image');
        const text = textOf(message.content);
        const note = images.length > 0 ? `${text === '' ? '' : `${text}\n`}(${images.length} image(s) follow)` : text;
        out.push({ role: 'tool', tool_call_id: message.toolCallId, content: note === '' ? '(no output)' : note });
        for (const image of images) pendingImages.push({ type: 'image_url', image_url: { url: dataUrl(image) } });
        break;
      }
    }
  }
  flushImages();
  return out;
}
