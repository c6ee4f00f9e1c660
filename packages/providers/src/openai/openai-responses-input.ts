import type { AssistantMessage, LlmMessage, UserContent } from '@troupe/core';
import type { ResponseFunctionCallOutputItemList, ResponseInputContent, ResponseInputItem } from 'openai/resources/responses/responses';
import { dataUrl } from './openai-chat-messages.js';
import { decodeReasoningItem, splitToolCallId } from './reasoning-item.js';

function inputContent(content: readonly UserContent[]): ResponseInputContent[] {
  return content.map((part) =>
    part.type === 'text' ? { type: 'input_text', text: part.text } : { type: 'input_image', image_url: dataUrl(part), detail: 'auto' },
  );
}

function assistantItems(message: AssistantMessage, sameModel: boolean, out: ResponseInputItem[]): void {
  let text = '';
  const flushText = (): void => {
    if (text !== '') out.push({ role: 'assistant', content: text });
    text = '';
  };
  for (const part of message.content) {
    if (part.type === 'text') {
      text += part.text;
      continue;
    }
    flushText();
    if (part.type === 'thinking') {
      const item = sameModel ? decodeReasoningItem(part) : undefined;
      if (item === undefined) continue;
      const summary = part.thinking === '' ? [] : [{ type: 'summary_text' as const, text: part.thinking }];
      out.push(
        item.encrypted_content === undefined
          ? { type: 'reasoning', id: item.id, summary }
          : { type: 'reasoning', id: item.id, summary, encrypted_content: item.encrypted_content },
      );
    } else {
      const { callId, itemId } = splitToolCallId(part.id);
      out.push({
        type: 'function_call',
        call_id: callId,
        name: part.name,
        arguments: JSON.stringify(part.arguments),
        ...(sameModel && itemId !== undefined ? { id: itemId } : {}),
      });
    }
  }
  flushText();
}

/**
 * The Responses `input` for a history. Reasoning items (kept in thinking signatures) and tool-call
 * item ids are sent back only for messages this provider and model produced; thinking from other
 * models is left out. Tool results carry their images inline.
 */
export function responsesInput(history: readonly LlmMessage[], producedHere: (message: AssistantMessage) => boolean): ResponseInputItem[] {
  const out: ResponseInputItem[] = [];
  for (const message of history) {
    switch (message.role) {
      case 'user':
        out.push({ role: 'user', content: typeof message.content === 'string' ? message.content : inputContent(message.content) });
        break;
      case 'assistant':
        assistantItems(message, producedHere(message), out);
        break;
      case 'toolResult': {
        const { callId } = splitToolCallId(message.toolCallId);
        const hasImages = message.content.some((part) => part.type === 'image');
        const output: string | ResponseFunctionCallOutputItemList = hasImages
          ? (inputContent(message.content) as ResponseFunctionCallOutputItemList)
          : message.content.map((part) => (part.type === 'text' ? part.text : '')).join('\n');
        out.push({ type: 'function_call_output', call_id: callId, output });
        break;
      }
    }
  }
  return out;
}
