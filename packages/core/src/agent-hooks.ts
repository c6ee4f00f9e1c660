import type { AgentResult } from './agent-result.js';
import type { CompactionInfo } from './compaction/compaction-strategy.js';
import { ErrorCode, type ErrorInfo } from './errors.js';
import type { RunId } from './ids.js';
import type { AssistantMessage, CustomMessage, LlmMessage, Message, ToolCall, ToolResultMessage } from './messages.js';

/** What run-level hooks see of the run. */
export interface RunHookContext {
  readonly runId: RunId;
  /** The conversation the run belongs to. */
  readonly sessionId: string;
  /** The history (read-only). */
  readonly messages: readonly Message[];
}

/** What turn hooks see of the run. */
export interface HookContext extends RunHookContext {
  readonly turn: number;
}

/** What `afterTurn` sees: the turn's reply (absent when the turn was aborted or stopped before the model finished) and its tool results. */
export interface TurnEndContext extends HookContext {
  readonly message?: AssistantMessage;
  readonly toolResults: readonly ToolResultMessage[];
  /**
   * The turn's model call did not finish: it failed (`message` records the error), or it was
   * aborted or cut by a limit before the reply (no `message`). Tool calls cut short do not count.
   */
  readonly failed: boolean;
}

/**
 * Extension points. Each fires before the event it can change, in this order (the seeds' hook
 * order): `onRunStart` → `agent_start` … `beforeTurn` → `turn_start` → `transformContext` →
 * `convertToLlm` → model call → for each tool call `beforeToolCall` → `tool_start` → execute →
 * `afterToolCall` → `tool_end` … `turn_end` → `afterTurn` … `onError` → `agent_end` → `onRunEnd`.
 *
 * Contract: the run-level hooks and `afterTurn` observe (their return value is ignored); a throw in
 * any of them is reported as an `error` event (`hook_failed`) and the run goes on, never a crash.
 * `beforeTurn` may stop the run before the turn's model call by returning `{ stop: reason }` (stop
 * reason `stopped`, no `turn_start`). `transformContext` returns the messages the model sees this
 * turn without changing the stored history; it is given the context as compacted (and, when it
 * is, what the last compaction did). `convertToLlm` decides what a custom message becomes
 * for the model (nothing when it returns undefined; without the hook custom messages are never
 * sent). `beforeToolCall` may veto a call with a reason (the call gets an error result and is not
 * run). `afterToolCall` may replace a result. A throw in `transformContext` or `convertToLlm` fails
 * the model call; one in a tool hook becomes the call's error result.
 */
export interface AgentHooks {
  onRunStart?(ctx: RunHookContext): void;
  // biome-ignore lint/suspicious/noConfusingVoidType: a hook that returns nothing must type-check as one
  beforeTurn?(ctx: HookContext): void | { stop: string };
  transformContext?(
    messages: readonly Message[],
    options: { signal: AbortSignal; compaction?: CompactionInfo },
  ): readonly Message[] | Promise<readonly Message[]>;
  convertToLlm?(message: CustomMessage): LlmMessage | readonly LlmMessage[] | undefined;
  beforeToolCall?(call: ToolCall, options: { signal: AbortSignal }): { veto: string } | undefined | Promise<{ veto: string } | undefined>;
  afterToolCall?(call: ToolCall, result: ToolResultMessage): ToolResultMessage | undefined | Promise<ToolResultMessage | undefined>;
  afterTurn?(ctx: TurnEndContext): void;
  /** The run ends in an error (`agent_end` follows with stop reason `error`). */
  onError?(error: ErrorInfo, ctx: RunHookContext): void;
  onRunEnd?(result: AgentResult, ctx: RunHookContext): void;
}

/** No hooks: what agents without `hooks` share. */
export const NO_HOOKS: AgentHooks = Object.freeze({});

/**
 * Calls an agent's observing hooks, turning a throw into a reported `hook_failed` error. The
 * hooks' context is made (by `context`) only when a hook is there to see it: a turn without hooks
 * allocates nothing here.
 */
export class HookRunner {
  readonly #hooks: AgentHooks;
  readonly #report: (error: ErrorInfo) => void;
  readonly #context: () => RunHookContext;

  constructor(hooks: AgentHooks, report: (error: ErrorInfo) => void, context: () => RunHookContext) {
    this.#hooks = hooks;
    this.#report = report;
    this.#context = context;
  }

  runStart(): void {
    const hook = this.#hooks.onRunStart;
    if (hook !== undefined) this.#call('onRunStart', () => hook(this.#context()));
  }

  /** The reason to stop the run before turn `turn`, if `beforeTurn` gives one. */
  beforeTurn(turn: number): string | undefined {
    const hook = this.#hooks.beforeTurn;
    if (hook === undefined) return undefined;
    let stop: string | undefined;
    this.#call('beforeTurn', () => {
      const verdict = hook({ ...this.#context(), turn });
      if (verdict !== undefined && typeof verdict.stop === 'string') stop = verdict.stop;
    });
    return stop;
  }

  /** After `turn_end`: the turn's reply (if it came) and its tool results. */
  afterTurn(turn: number, message: AssistantMessage | undefined, toolResults: readonly ToolResultMessage[]): void {
    const hook = this.#hooks.afterTurn;
    if (hook === undefined) return;
    const failed = message === undefined || message.stopReason === 'error' || message.stopReason === 'aborted';
    this.#call('afterTurn', () => hook({ ...this.#context(), turn, toolResults, failed, ...(message === undefined ? {} : { message }) }));
  }

  /** Before `agent_end`: `onError` when the run ends in an error. */
  beforeEnd(result: AgentResult): void {
    const hook = this.#hooks.onError;
    const error = result.error;
    if (hook !== undefined && result.stopReason === 'error' && error !== undefined) this.#call('onError', () => hook(error, this.#context()));
  }

  runEnd(result: AgentResult): void {
    const hook = this.#hooks.onRunEnd;
    if (hook !== undefined) this.#call('onRunEnd', () => hook(result, this.#context()));
  }

  #call(name: string, fn: () => void): void {
    try {
      fn();
    } catch (error) {
      this.#report({ code: ErrorCode.HookFailed, message: `${name} hook failed: ${error instanceof Error ? error.message : String(error)}` });
    }
  }
}
