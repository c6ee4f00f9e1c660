import type { Usage } from './usage.js';

/** Plain text. */
export interface TextContent {
  type: 'text';
  text: string;
  /** Opaque vendor data that must go back with this part on later turns (e.g. a Gemini thought signature, a Responses item id). */
  signature?: string;
}

/** Model reasoning. `signature` is opaque vendor data that some APIs need sent back on later turns. */
export interface ThinkingContent {
  type: 'thinking';
  thinking: string;
  signature?: string;
  /** True when the vendor redacted the reasoning and only returned an opaque blob in `signature`. */
  redacted?: boolean;
}

/** An image, base64-encoded. */
export interface ImageContent {
  type: 'image';
  data: string;
  mimeType: string;
}

/** A tool call requested by the model. */
export interface ToolCall {
  type: 'toolCall';
  id: string;
  name: string;
  /** Parsed arguments. `{}` when the model sent none or sent broken JSON (see `rawArguments`). */
  arguments: Record<string, unknown>;
  /** The raw argument text, present only when it did not parse as a JSON object. */
  rawArguments?: string;
  /** Opaque vendor data that must go back with this call on later turns. */
  signature?: string;
}

/**
 * Why the model stopped: `stop` finished; `length` hit the output limit; `toolUse` wants tools;
 * `refusal` refused, or the vendor's content filter stopped the reply (Anthropic `refusal`, OpenAI
 * `content_filter`, Gemini `SAFETY`, `RECITATION` and other blocks); `error` failed (see
 * `errorMessage`); `aborted` was cut off: by the user, or by a run limit (a notice the agent
 * writes says which).
 */
export type StopReason = 'stop' | 'length' | 'toolUse' | 'refusal' | 'error' | 'aborted';

/** Content a user or a tool result may carry. */
export type UserContent = TextContent | ImageContent;

/** Content an assistant message may carry. */
export type AssistantContent = TextContent | ThinkingContent | ToolCall;

/** A message from the user. */
export interface UserMessage {
  role: 'user';
  content: string | UserContent[];
  timestamp: number;
}

/** A finished message from the model. */
export interface AssistantMessage {
  role: 'assistant';
  content: AssistantContent[];
  stopReason: StopReason;
  usage: Usage;
  /** The `provider:model` name that produced it. */
  model: string;
  /** What went wrong (`error`), or why the vendor refused (`refusal`). */
  errorMessage?: string;
  timestamp: number;
}

/** The result of one tool call, sent back to the model. */
export interface ToolResultMessage {
  role: 'toolResult';
  toolCallId: string;
  toolName: string;
  content: UserContent[];
  isError: boolean;
  /** Structured data for logs and UIs; never sent to the model. */
  details?: unknown;
  timestamp: number;
}

/**
 * A message of the application's own kind (a notification, an artifact, a UI note) kept in the
 * history with the conversation. It reaches the model only as the agent's `convertToLlm` hook
 * turns it into model messages; without that hook it is never sent.
 */
export interface CustomMessage {
  role: 'custom';
  /** The application's name for the kind of message (`notification`, `artifact`…). */
  customType: string;
  content: string | UserContent[];
  /** Structured data for the application; never sent to the model as such. */
  details?: unknown;
  timestamp: number;
}

/** A message a model can be sent: what providers take. */
export type LlmMessage = UserMessage | AssistantMessage | ToolResultMessage;

/** Any message in an agent's history: a model message or a {@link CustomMessage}. */
export type Message = LlmMessage | CustomMessage;

/**
 * Whether a message is sent to the model on later calls. Every message is kept in the history and
 * its events, but an assistant message that failed (`error`), was cut off (`aborted`, a limit's
 * notice) or was refused (`refusal`) is left out of what the model sees next: it is the record of
 * what happened, not a turn of the conversation (vendors reject empty or refused replies sent back).
 * A custom message is left out too: only the `convertToLlm` hook sends one, converted.
 */
export function inModelContext(message: Message): boolean {
  if (message.role === 'custom') return false;
  if (message.role !== 'assistant') return true;
  const reason = message.stopReason;
  return reason !== 'error' && reason !== 'aborted' && reason !== 'refusal';
}

/** Whether the last message of `messages` that the model is sent is an assistant reply (see {@link inModelContext}). */
export function endsWithReply(messages: readonly Message[]): boolean {
  return messages.findLast(inModelContext)?.role === 'assistant';
}

/**
 * What the model is sent of `messages`: model messages as they are, custom messages as
 * `convert` makes them (left out without it, or when it returns undefined).
 */
export function toLlmMessages(
  messages: readonly Message[],
  convert: ((message: CustomMessage) => LlmMessage | readonly LlmMessage[] | undefined) | undefined,
): readonly LlmMessage[] {
  const first = messages.findIndex((message) => message.role === 'custom');
  if (first === -1) return messages as readonly LlmMessage[];
  const out = messages.slice(0, first) as LlmMessage[];
  for (let i = first; i < messages.length; i++) {
    const message = messages[i] as Message;
    if (message.role !== 'custom') {
      out.push(message);
      continue;
    }
    const converted = convert?.(message);
    if (converted === undefined) continue;
    if (Array.isArray(converted)) out.push(...(converted as readonly LlmMessage[]));
    else out.push(converted as LlmMessage);
  }
  return out;
}

/** The tool calls of an assistant message, in the model's order. */
export function toolCallsOf(message: AssistantMessage): ToolCall[] {
  // Kept in the turn's batch while its calls run (or wait for a user): an array of the exact size,
  // where pushing into an empty one reserves room for 17.
  let count = 0;
  for (const part of message.content) if (part.type === 'toolCall') count++;
  const calls = new Array<ToolCall>(count);
  let i = 0;
  for (const part of message.content) if (part.type === 'toolCall') calls[i++] = part;
  return calls;
}

/** The concatenated text parts of a message (no thinking, no tool calls). */
export function textOf(message: Message): string {
  if (typeof message.content === 'string') return message.content;
  let text = '';
  for (const part of message.content) if (part.type === 'text') text += part.text;
  return text;
}

/** A user message made of text (and optional images). */
export function userMessage(content: string | UserContent[], timestamp: number): UserMessage {
  return { role: 'user', content, timestamp };
}
