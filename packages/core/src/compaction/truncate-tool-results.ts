import type { Message, ToolResultMessage, UserContent } from '../messages.js';
import type { CompactionStrategy } from './compaction-strategy.js';
import { shortenText } from './shorten-text.js';

/** Options of {@link truncateToolResults}. */
export interface TruncateToolResultsOptions {
  /** Tokens (about four characters each) an old tool result keeps, half from its head, half from its tail. Default 1,000. */
  budgetTokens?: number;
}

/**
 * The first step of the default cascade (`tool-results`): every tool result older than the last
 * assistant message whose text is longer than the budget is replaced by a copy that keeps its
 * head and its tail with a `[... N lines truncated ...]` marker between them (images stay; the
 * copy has no `details`, which the model never sees). The results the model is working on now,
 * and every message that is not a tool result, are kept as they are. Needs no model.
 */
export function truncateToolResults(options: TruncateToolResultsOptions = {}): CompactionStrategy {
  const maxChars = Math.max(1, options.budgetTokens ?? 1000) * 4;
  return {
    name: 'tool-results',
    compact(messages) {
      let lastAssistant = messages.length;
      while (lastAssistant > 0 && messages[lastAssistant - 1]?.role !== 'assistant') lastAssistant--;
      return messages.map((message, i) => (i < lastAssistant - 1 && message.role === 'toolResult' ? shortened(message, maxChars) : message));
    },
  };
}

function shortened(message: ToolResultMessage, maxChars: number): Message {
  let text = '';
  let parts = 0;
  const images: UserContent[] = [];
  for (const part of message.content) {
    if (part.type === 'text') text += (parts++ > 0 ? '\n' : '') + part.text;
    else images.push(part);
  }
  if (text.length <= maxChars) return message;
  const { details: _details, ...rest } = message;
  return { ...rest, content: [{ type: 'text', text: shortenText(text, maxChars) }, ...images] };
}
