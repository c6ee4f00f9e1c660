import type { AgentResult, AgentStateName } from './agent-result.js';
import type { CompactionInfo } from './compaction/compaction-strategy.js';
import type { ErrorInfo } from './errors.js';
import type { AgentPath, RunId } from './ids.js';
import type { AssistantMessage, Message, ToolResultMessage } from './messages.js';
import type { ProviderFailure, StreamDelta } from './provider.js';
import type { Usage } from './usage.js';

/** Fields every event carries. `seq` strictly increases within an agent; `ts` is epoch ms. */
export interface EventEnvelope {
  runId: RunId;
  agentPath: AgentPath;
  seq: number;
  ts: number;
}

/** Event payloads, before the envelope is stamped on. Each is plain JSON. */
export type AgentEventPayload =
  /** A run begins. `sessionId`: the conversation it belongs to, the same for every run of the agent until `reset()`. */
  | { type: 'agent_start'; sessionId: string }
  /** An input guardrail rejected the prompt: nothing was sent to the model; `agent_end` follows (stop reason `rejected`). */
  | { type: 'input_rejected'; guardrail: string; reason: string }
  | { type: 'agent_end'; result: AgentResult }
  | { type: 'state'; state: AgentStateName }
  | { type: 'turn_start'; turn: number }
  /** `message`: the turn's reply, or the message recording its failure; absent when the turn was aborted or cut by a limit before the model finished. */
  | { type: 'turn_end'; turn: number; message?: AssistantMessage; toolResults: ToolResultMessage[] }
  /**
   * A message begins: a prompt or queued message, a model reply (which then streams
   * `message_update`s), a tool result, or one the agent writes (a failure, an interrupt, a limit's notice).
   */
  | { type: 'message_start'; role: Message['role']; attempt?: number }
  /** One streamed delta of the assistant message: only what is new. */
  | { type: 'message_update'; delta: StreamDelta }
  /**
   * A message is complete (`message`), or a streamed attempt failed (`failed`): consumers drop
   * what they showed of it, since the retry streams again from the start.
   */
  | { type: 'message_end'; role: Message['role']; message?: Message; failed?: ErrorInfo }
  | { type: 'tool_start'; toolCallId: string; toolName: string; args: Record<string, unknown> }
  | { type: 'tool_update'; toolCallId: string; toolName: string; partial?: unknown; progress?: string }
  | { type: 'tool_end'; toolCallId: string; toolName: string; result: ToolResultMessage }
  | { type: 'permission_request'; toolCallId: string; toolName: string; args: Record<string, unknown> }
  | { type: 'question'; toolCallId: string; toolName: string; question: string; details?: unknown }
  | { type: 'usage'; usage: Usage; total: Usage }
  | { type: 'retry'; attempt: number; delayMs: number; error: ProviderFailure }
  /** The context sent to the model was compacted (the history itself is kept whole). */
  | ({ type: 'compaction' } & CompactionInfo)
  | { type: 'error'; error: ErrorInfo };

/** The `type` of an event. */
export type AgentEventType = AgentEventPayload['type'];

/** An event of an agent run: a payload plus the envelope. Survives `JSON.parse(JSON.stringify(e))`. */
export type AgentEvent = AgentEventPayload & EventEnvelope;

/** Narrows an event to one type. */
export type AgentEventOf<T extends AgentEventType> = Extract<AgentEvent, { type: T }>;
