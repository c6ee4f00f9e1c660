import type { AgentPath, RunId } from './ids.js';
import type { UserContent } from './messages.js';

/** What a tool result can ask of the agent loop besides returning content. */
export type ToolControl =
  /** Pause the run until the user answers `question`; the answer becomes this call's result. */
  | { type: 'suspend'; question: string; details?: unknown }
  /** End the run successfully with `value` (and this call's content as the final word). */
  | { type: 'complete'; value: unknown };

/** What a tool returns. */
export interface ToolResult {
  /** Sent to the model. A string is shorthand for one text part. */
  content: string | UserContent[];
  isError?: boolean;
  /** Structured data for logs and UIs; not sent to the model. */
  details?: unknown;
  control?: ToolControl;
}

/** What a tool gets besides its arguments. */
export interface ToolContext {
  readonly toolCallId: string;
  readonly runId: RunId;
  readonly agentPath: AgentPath;
  /** The conversation the call belongs to (the agent's session id). */
  readonly sessionId: string;
  /** Fires when the call is aborted, cancelled by steering, or the run ends. Made on first read. */
  readonly signal: AbortSignal;
  /**
   * Calls `listener` once when `signal` would fire (at once if the call is already aborted), and
   * returns what removes it. Cheaper than listening to `signal`, which reading makes: a tool that
   * only needs to hear the abort (and is called often, like a delegation) uses this. Agents of
   * `@troupe/core` always provide it; a hand-made context may not.
   */
  onAbort?(listener: () => void): () => void;
  /** Streams a partial result (emitted as a `tool_update` event). */
  update(partial: unknown): void;
  /** Streams a progress line (emitted as a `tool_update` event with `progress`). */
  progress(text: string): void;
}

/**
 * A capability the model can call.
 *
 * Contract: `execute` receives arguments already validated against `parameters` (JSON Schema).
 * It may throw or reject: the agent turns that into an error result, so a tool never crashes the
 * loop. It should honour `ctx.signal` and return soon after it fires; a tool that ignores it is
 * still awaited in the background but its result is discarded. `readOnly` must be truthful: the
 * `smart` permission mode runs read-only tools without asking. `readOnly` and `idempotent` also
 * say whether a call may run again when an agent is restored from a snapshot taken while it ran
 * (its process was killed, or lost its task to another worker): such a call runs again; any other
 * gets `INTERRUPTED_BY_RESTORE` as its result, and the model decides what to do.
 */
export interface Tool<Args extends Record<string, unknown> = Record<string, unknown>> {
  readonly name: string;
  /** Human-readable name for UIs. */
  readonly label?: string;
  readonly description: string;
  /** JSON Schema of the arguments object. */
  readonly parameters: Record<string, unknown>;
  /** It changes nothing outside the agent. */
  readonly readOnly?: boolean;
  /** Running it again with the same arguments has no further effect (MCP's `idempotentHint`). */
  readonly idempotent?: boolean;
  execute(args: Args, ctx: ToolContext): Promise<ToolResult> | ToolResult;
}

/** Whether a call of `tool` may run again after a restore: it is read-only or idempotent. */
export function isRepeatable(tool: Pick<Tool, 'readOnly' | 'idempotent'>): boolean {
  return tool.readOnly === true || tool.idempotent === true;
}

/** Helper that keeps a tool's argument type while widening it to `Tool` for an agent's list. */
export function defineTool<Args extends Record<string, unknown>>(tool: Tool<Args>): Tool {
  return tool as unknown as Tool;
}

/**
 * Tools that can change while an agent runs (an MCP server's `list_changed`).
 *
 * Contract: `current()` is called at each model call and each tool batch, synchronously; it
 * returns the same array while nothing changed (a new array means a new list). It must not throw.
 */
export interface ToolSource {
  current(): readonly Tool[];
}
