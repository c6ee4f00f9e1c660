import type { RunId } from './ids.js';
import type { Message, UserContent } from './messages.js';

/** What `prompt` accepts: text, text with images, or whole messages. */
export type PromptInput = string | UserContent[] | Message[];

/** Options of one run. */
export interface RunOptions {
  /** The id the run's events carry. Default: a new id. Sub-agents share their parent run's id. */
  runId?: RunId;
}

/** The messages a prompt adds: text or content parts become one user message stamped `at`. */
export function promptMessages(input: PromptInput, at: number): Message[] {
  return typeof input === 'string' || isContentList(input) ? [{ role: 'user', content: input, timestamp: at }] : input;
}

function isContentList(input: UserContent[] | Message[]): input is UserContent[] {
  const first = input[0];
  return first === undefined || 'type' in first;
}
