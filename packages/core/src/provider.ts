import type { AssistantMessage, LlmMessage } from './messages.js';

/**
 * How hard the model should think. Providers map this to their own budgets or efforts; a level a
 * model lacks becomes the nearest one it has (`xhigh` is `high` where the vendor has no higher effort).
 */
export type ThinkingLevel = 'off' | 'minimal' | 'low' | 'medium' | 'high' | 'xhigh';

/** Every {@link ThinkingLevel}, from none to the most. */
export const THINKING_LEVELS: readonly ThinkingLevel[] = ['off', 'minimal', 'low', 'medium', 'high', 'xhigh'];

/** What the model sees of a tool. */
export interface ToolDefinition {
  name: string;
  description: string;
  /** JSON Schema of the arguments. */
  parameters: Record<string, unknown>;
}

/** One model call. */
export interface ProviderRequest {
  /** The model name without the provider prefix (`gpt-4.1-mini`). */
  model: string;
  systemPrompt?: string;
  messages: readonly LlmMessage[];
  tools: readonly ToolDefinition[];
  thinking?: ThinkingLevel;
  maxTokens?: number;
  temperature?: number;
  /** Nucleus sampling: only tokens within this much probability mass are considered. */
  topP?: number;
}

/** Classified failure kinds. */
export type ProviderErrorKind = 'rate_limited' | 'overflow' | 'auth' | 'network' | 'api' | 'aborted' | 'invalid_request';

/** A failed model call, as a value. */
export interface ProviderFailure {
  kind: ProviderErrorKind;
  message: string;
  /** Whether trying the same request again may succeed. */
  retryable: boolean;
  /** The delay the vendor asked for (Retry-After), in milliseconds. */
  retryAfterMs?: number;
  /** HTTP status when there was one. */
  status?: number;
}

/**
 * A streaming delta. Each content block is bracketed by its `*_start` and `*_end`; `index` is the
 * block's position in the final message's content.
 */
export type StreamDelta =
  | { type: 'text_start'; index: number }
  | { type: 'text_delta'; index: number; delta: string }
  | { type: 'text_end'; index: number }
  | { type: 'thinking_start'; index: number }
  | { type: 'thinking_delta'; index: number; delta: string }
  | { type: 'thinking_end'; index: number }
  | { type: 'toolcall_start'; index: number; id: string; name: string }
  | { type: 'toolcall_delta'; index: number; delta: string }
  | { type: 'toolcall_end'; index: number };

/** What a provider stream yields: `start`, deltas, then exactly one `done` or `error`. */
export type ProviderEvent = { type: 'start' } | StreamDelta | { type: 'done'; message: AssistantMessage } | { type: 'error'; error: ProviderFailure };

/** Options of one call that are not part of the request. */
export interface ProviderCallOptions {
  signal: AbortSignal;
}

/**
 * A language model behind a uniform streaming protocol.
 *
 * Contract: `stream` never throws and its iterator never rejects; every failure, including an
 * abort, ends the stream with one `error` event (`kind: 'aborted'` for an abort). A successful
 * stream ends with one `done` event carrying the finished message with usage and cost. Deltas
 * arrive in order and carry only what is new. The provider honours `signal` promptly: once it
 * fires, the underlying request is cancelled and the stream ends. Providers do not retry on their
 * own; the agent's retry strategy decides. `request.messages` is a read-only view of the history as
 * it was when the call was made (later turns do not change it; it is not a copy), without the
 * messages that are not sent to the model (failed, cut-off and refused replies).
 */
export interface Provider {
  /** The provider's name, the part before `:` in `provider:model`. */
  readonly name: string;
  stream(request: ProviderRequest, options: ProviderCallOptions): AsyncIterable<ProviderEvent>;
}
