import type { AssistantMessage, ImageContent, Message, TextContent } from '@troupe/core';

/** How much of a long text a conversation shows. */
const LIMITS = {
  /** A tool result: its first lines… */
  resultLines: 12,
  /** …and at most this many characters. */
  resultChars: 1200,
  /** A tool call's arguments, as JSON. */
  argumentChars: 400,
  /** The one line a thinking block is collapsed to. */
  thinkingChars: 100,
} as const;

const INDENT = '  ';

/**
 * An actor's history as a person reads it, one block per message, each under its role: `user`,
 * `assistant` (its text; each thinking block collapsed to one line with its length; each tool
 * call as `→ name {arguments}`), `tool result` / `tool error` (named by tool and call id, cut to
 * its first lines and characters with what was left out said), an application's own message as
 * `custom · <its type>`, and images as a placeholder.
 */
export function formatConversation(messages: readonly Message[]): string {
  return messages.map((message) => `${formatMessage(message)}\n`).join('\n');
}

function formatMessage(message: Message): string {
  switch (message.role) {
    case 'user':
      return block('user', typeof message.content === 'string' ? [message.content] : message.content.map(userPart));
    case 'assistant':
      return block('assistant', assistantLines(message));
    case 'toolResult':
      return block(`${message.isError ? 'tool error' : 'tool result'} · ${message.toolName} (${message.toolCallId})`, [
        cut(message.content.map(userPart).join('\n')),
      ]);
    case 'custom':
      return block(`custom · ${message.customType}`, typeof message.content === 'string' ? [message.content] : message.content.map(userPart));
  }
}

function assistantLines(message: AssistantMessage): string[] {
  const lines: string[] = [];
  for (const part of message.content) {
    if (part.type === 'text') lines.push(part.text);
    else if (part.type === 'thinking') lines.push(thinkingLine(part.thinking, part.redacted === true));
    else lines.push(`→ ${part.name} ${clip(part.rawArguments ?? JSON.stringify(part.arguments), LIMITS.argumentChars)}`);
  }
  if (message.stopReason === 'error') lines.push(`(failed: ${message.errorMessage ?? 'unknown error'})`);
  else if (message.stopReason === 'aborted') lines.push('(aborted)');
  else if (message.stopReason === 'length') lines.push('(cut off: the output limit was reached)');
  return lines;
}

function thinkingLine(thinking: string, redacted: boolean): string {
  if (redacted) return '(thinking, redacted)';
  const flat = thinking.replace(/\s+/g, ' ').trim();
  // Cut at a word when there is one in the last part of the line.
  const head = flat.slice(0, LIMITS.thinkingChars);
  const space = head.lastIndexOf(' ');
  const shown = flat.length <= LIMITS.thinkingChars ? flat : `${space > LIMITS.thinkingChars * 0.6 ? head.slice(0, space) : head}…`;
  return `(thinking, ${thinking.length.toLocaleString('en-US')} chars: ${shown})`;
}

function userPart(part: TextContent | ImageContent): string {
  return part.type === 'text' ? part.text : `[image ${part.mimeType}, ${Math.round((part.data.length * 3) / 4 / 1024)} KB]`;
}

/** A tool result: its first lines and characters, then what was left out. */
function cut(text: string): string {
  const lines = text.split('\n');
  let shown = lines.slice(0, LIMITS.resultLines).join('\n');
  if (shown.length > LIMITS.resultChars) shown = shown.slice(0, LIMITS.resultChars);
  if (shown.length === text.length) return text;
  const keptLines = shown.split('\n').length;
  const more = lines.length > keptLines ? `${lines.length - keptLines} more lines` : `${text.length - shown.length} more chars`;
  return `${shown.trimEnd()}\n… (${more})`;
}

function clip(text: string, chars: number): string {
  return text.length <= chars ? text : `${text.slice(0, chars)}… (${text.length - chars} more chars)`;
}

function block(label: string, lines: readonly string[]): string {
  const body = lines.flatMap((line) => line.split('\n')).map((line) => (line === '' ? '' : `${INDENT}${line}`));
  return [label, ...body].join('\n');
}
