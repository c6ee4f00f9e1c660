/** What the summarising model is told, and the transcript of the turns it summarises. */
import { textOf, type Message } from '../messages.js';
import { shortenText } from './shorten-text.js';

/** The system prompt of a summary call. */
export const SUMMARY_SYSTEM_PROMPT =
  'You summarise the earlier part of a conversation between a user and an AI agent that works with tools, ' +
  'so that the agent can carry on the work from your summary and the most recent messages alone.';

/** The default instructions of a summary call, after the transcript. */
export const SUMMARY_INSTRUCTIONS = `Write a summary of the conversation above that the agent can work from. Keep, under these headings:

Goals: what the user asked for, with every requirement, constraint and preference they stated.
Decisions: what was decided or found out, and why.
Files touched: every file, directory or other resource read, created, changed or deleted, and what was done to it.
Progress: the steps taken so far, the tool results that matter, and the errors met and how they were handled.
Open questions: what is unresolved, pending, or still to be done next.

Keep exact names, paths, identifiers, numbers, commands and error messages. If the transcript begins with an earlier summary, merge it into yours. Do not invent anything, do not address the user, and write only the summary.`;

/** The first line of the message that stands for the summarised turns. */
export const SUMMARY_HEADER = '[Summary of the earlier conversation, written to fit the context window]';

/** Characters a tool result keeps in a transcript. */
const RESULT_CHARS = 2000;

/** The turns as plain text for the summarising model: roles, text, tool calls and (shortened) results; at most `maxChars`. */
export function transcriptOf(messages: readonly Message[], maxChars: number): string {
  const lines: string[] = [];
  for (const message of messages) {
    // The application's own messages reach the model only through convertToLlm: not summarised.
    if (message.role === 'custom') continue;
    if (message.role === 'user') {
      lines.push(`[user]\n${textOf(message)}`);
    } else if (message.role === 'toolResult') {
      lines.push(`[${message.isError ? 'tool error' : 'tool result'}: ${message.toolName}]\n${shortenText(textOf(message), RESULT_CHARS)}`);
    } else {
      const text = textOf(message);
      if (text !== '') lines.push(`[assistant]\n${text}`);
      for (const part of message.content) {
        if (part.type === 'toolCall') lines.push(`[assistant called ${part.name}] ${part.rawArguments ?? JSON.stringify(part.arguments)}`);
      }
    }
  }
  return shortenText(lines.join('\n\n'), maxChars);
}
