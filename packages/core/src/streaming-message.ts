import type { AssistantContent, AssistantMessage, ToolCall } from './messages.js';
import type { StreamDelta } from './provider.js';

/**
 * The assistant message as it streams: its content so far. Usage and stop reason come only with
 * the finished message. A tool call's `arguments` stay `{}` while its JSON streams, the text so far
 * in `rawArguments`; they are parsed when the call's block ends.
 */
export type StreamingMessage = Omit<AssistantMessage, 'stopReason' | 'usage' | 'errorMessage'>;

/**
 * Builds the {@link StreamingMessage} of one reply from its deltas, O(1) per delta (it appends to
 * the part the delta names). The message it returns is live: it changes as deltas arrive.
 */
export class StreamingMessageBuilder {
  readonly message: StreamingMessage;

  constructor(model: string, timestamp: number) {
    this.message = { role: 'assistant', content: [], model, timestamp };
  }

  /** Applies one delta. */
  apply(delta: StreamDelta): void {
    const content = this.message.content;
    switch (delta.type) {
      case 'text_start':
        content[delta.index] = { type: 'text', text: '' };
        return;
      case 'thinking_start':
        content[delta.index] = { type: 'thinking', thinking: '' };
        return;
      case 'toolcall_start':
        content[delta.index] = { type: 'toolCall', id: delta.id, name: delta.name, arguments: {}, rawArguments: '' };
        return;
      case 'text_delta': {
        const part = partAt(content, delta.index, 'text');
        if (part === undefined) content[delta.index] = { type: 'text', text: delta.delta };
        else part.text += delta.delta;
        return;
      }
      case 'thinking_delta': {
        const part = partAt(content, delta.index, 'thinking');
        if (part === undefined) content[delta.index] = { type: 'thinking', thinking: delta.delta };
        else part.thinking += delta.delta;
        return;
      }
      case 'toolcall_delta': {
        const part = partAt(content, delta.index, 'toolCall');
        if (part !== undefined) part.rawArguments = (part.rawArguments ?? '') + delta.delta;
        return;
      }
      case 'toolcall_end': {
        const part = partAt(content, delta.index, 'toolCall');
        if (part !== undefined) parseArguments(part);
        return;
      }
      case 'text_end':
      case 'thinking_end':
        return;
    }
  }
}

function partAt<T extends AssistantContent['type']>(content: AssistantContent[], index: number, type: T): Extract<AssistantContent, { type: T }> | undefined {
  const part = content[index];
  return part?.type === type ? (part as Extract<AssistantContent, { type: T }>) : undefined;
}

function parseArguments(call: ToolCall): void {
  const raw = call.rawArguments ?? '';
  try {
    const parsed: unknown = JSON.parse(raw === '' ? '{}' : raw);
    if (typeof parsed === 'object' && parsed !== null && !Array.isArray(parsed)) {
      call.arguments = parsed as Record<string, unknown>;
      delete call.rawArguments;
    }
  } catch {
    // Broken JSON stays in rawArguments, as in a finished message.
  }
}
