import type { AgentEvent, PermissionDecision } from '@troupe/core';
import type { Observable } from 'rxjs';
import type { ChatMode } from './chat-state.js';

/**
 * What the chat UI talks to: one conversation with an entry agent (and its sub-agents).
 *
 * Contract: `events$` is hot and carries every event of every actor of the conversation, in the
 * order each actor emitted them; `earlier` holds the events of a resumed conversation, replayed
 * before `events$`. `send` starts the entry's next run, or queues the text as a follow-up while
 * one is running; it never rejects for run failures (they arrive as events). `abort` ends the
 * running turn (a no-op when idle). `setMode` takes effect from the next model call,
 * `switchModel` from the next run.
 */
export interface ChatSession {
  /** The entry actor's path. */
  readonly entry: string;
  /** `provider:model` of the entry (as `switchModel` last set it). */
  readonly model: string;
  /** The entry model's context window in tokens, when known. */
  readonly contextWindow: number | undefined;
  /** The recorded run, when the conversation is recorded. */
  readonly runId: string | undefined;
  readonly events$: Observable<AgentEvent>;
  readonly earlier: readonly AgentEvent[];
  /** A note to show when the chat opens (the scripted model is in use, say). */
  readonly note?: string;
  send(text: string): Promise<void>;
  abort(): Promise<void>;
  approve(callId: string, decision: PermissionDecision, path: string): Promise<void>;
  reply(answer: string, path: string): Promise<void>;
  setMode(mode: ChatMode): void;
  /** The entry's tools as it has them now (read-only ones only in Plan). */
  toolNames(): string[];
  /**
   * `/model`: the entry's next runs call the model `name` (`provider:model`, or a model of the
   * graph by its key); the history stays. Resolves with what the status bar shows. Rejects, changing
   * nothing, for a model it cannot use (a typed error saying why: unknown provider, missing key…)
   * and while a run is going on (`already_running`).
   */
  switchModel(name: string): Promise<{ model: string; contextWindow: number | undefined }>;
  close(): Promise<void>;
}
