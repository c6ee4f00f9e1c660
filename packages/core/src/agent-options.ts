import type { Clock } from './clock.js';
import type { CompactionInfo, CompactionOptions, CompactionStrategy } from './compaction/compaction-strategy.js';
import type { Limits } from './limits.js';
import type { AssistantMessage, Message, ToolCall, ToolResultMessage } from './messages.js';
import type { PermissionPolicy } from './permissions.js';
import type { Provider, ThinkingLevel } from './provider.js';
import type { RetryStrategy } from './retry-strategy.js';
import type { SchemaValidator } from './schema-validator.js';
import type { Tool, ToolSource } from './tool.js';

/** How the calls of one turn run: all at once (default), one after another, or `size` at a time. */
export type ToolExecution = { mode: 'parallel' } | { mode: 'sequential' } | { mode: 'batched'; size: number };

/** How queued steering or follow-up messages are delivered: one per turn (default) or all at once. */
export type QueueMode = 'one-at-a-time' | 'all';

/**
 * What ends a run besides a limit, an abort or an error: `reply` (default) a reply without tool
 * calls, as in a chat; `task` only a tool that completes the run (`task_complete`). In task mode a
 * reply without tool calls is shown like any other and the loop goes on, with a short reminder to
 * call `task_complete` once the task is done (see `TASK_REMINDER`).
 */
export type Completion = 'reply' | 'task';

/** What hooks see of the run. */
export interface HookContext {
  readonly turn: number;
  readonly messages: readonly Message[];
}

/**
 * Extension points, called in this order within a turn:
 * `beforeTurn` → `transformContext` → model call → for each tool call `beforeToolCall` →
 * execute → `afterToolCall` → `afterTurn`.
 *
 * Contract: `beforeTurn` and `afterTurn` observe (their return value is ignored, a throw is
 * reported as an `error` event). `transformContext` returns the messages the model sees this turn
 * without changing the stored history; it is given the context as compacted (and, when it is, what
 * the last compaction did). `beforeToolCall` may veto a call with a reason (the call
 * gets an error result and is not run). `afterToolCall` may replace a result. A throw in any of
 * them is turned into an error result or event, never a crash.
 */
export interface AgentHooks {
  beforeTurn?(ctx: HookContext): void;
  afterTurn?(ctx: HookContext & { message: AssistantMessage; toolResults: readonly ToolResultMessage[] }): void;
  transformContext?(messages: readonly Message[], options: { signal: AbortSignal; compaction?: CompactionInfo }): readonly Message[] | Promise<readonly Message[]>;
  beforeToolCall?(call: ToolCall, options: { signal: AbortSignal }): { veto: string } | undefined | Promise<{ veto: string } | undefined>;
  afterToolCall?(call: ToolCall, result: ToolResultMessage): ToolResultMessage | undefined | Promise<ToolResultMessage | undefined>;
}

/** Everything an {@link Agent} is made of. Only `provider` and `model` are required. */
export interface AgentOptions {
  provider: Provider;
  /** The model name as the provider knows it. */
  model: string;
  /** The agent's name; the root of its path. Default `agent`. */
  name?: string;
  /** The full path when this agent is a sub-agent (`lead/researcher#2`). Default: `name`. */
  path?: string;
  systemPrompt?: string;
  /** Fixed tools, or a source whose list is read again for every model call. */
  tools?: readonly Tool[] | ToolSource;
  thinking?: ThinkingLevel;
  maxTokens?: number;
  /**
   * The model's context window in tokens. When set, a request estimated over the compaction
   * threshold (80% by default, leaving room for `maxTokens` of reply) is compacted before it is
   * sent, instead of failing at the provider.
   */
  contextWindow?: number;
  temperature?: number;
  /** Default: `{ maxTurns: 50 }` (see `DEFAULT_MAX_TURNS`); `maxTurns: Infinity` for no cap. */
  limits?: Limits;
  /**
   * Default `{ mode: 'smart' }`: read-only tools run, every other tool asks. `{ mode: 'allow' }`
   * runs everything without asking.
   */
  permissions?: PermissionPolicy;
  /** What ends a run: a reply without tool calls (`reply`, default) or only `task_complete` (`task`). */
  completion?: Completion;
  /** Wait this long (on `clock`) before each model call of a run after its first. Default 0. */
  stepDelayMs?: number;
  toolExecution?: ToolExecution;
  steeringMode?: QueueMode;
  followUpMode?: QueueMode;
  /** Default: exponential back-off, 5 retries, 1 s base, 60 s cap. */
  retry?: RetryStrategy;
  /**
   * How the context is compacted when it nears the context window (or the vendor says it is too
   * long): a threshold and a cascade of steps, or a single step. Default: at 80% of the window,
   * shorten old tool results, then summarise older turns with the agent's own model, then drop the
   * oldest turns. The history itself is never rewritten; only what the model is sent is compacted.
   */
  compaction?: CompactionStrategy | CompactionOptions;
  hooks?: AgentHooks;
  /** Default: the system clock. */
  clock?: Clock;
  /** Validator of tool arguments. Default: one shared by every agent of the process. */
  validator?: SchemaValidator;
  /**
   * Keep the current run's events so that a late subscriber to `events$` first gets everything
   * from `agent_start` on, then follows live. Default false: retaining every event of many
   * concurrent agents costs memory and GC time that most callers (who subscribe before
   * `prompt()`) do not need.
   */
  keepRunEvents?: boolean;
}
