import type { AgentHooks } from './agent-hooks.js';
import type { Clock } from './clock.js';
import type { AgentEvent } from './events.js';
import type { CompactionOptions, CompactionStrategy } from './compaction/compaction-strategy.js';
import type { InputGuardrail } from './input-guardrails.js';
import type { Limits } from './limits.js';
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
  /** Nucleus sampling (not every vendor takes it: Anthropic's API of this SDK version does not). */
  topP?: number;
  /**
   * The final answer (the reply without tool calls that ends a run) must be JSON matching this JSON
   * Schema: the system prompt says so, an answer that does not parse or validate is asked for again
   * in the same conversation (`outputRetries` times), and the parsed value is the result's `value`.
   * When no answer is acceptable the run ends with stop reason `error`, code `invalid_output`.
   */
  outputSchema?: Record<string, unknown>;
  /** How many times an unacceptable final answer is asked for again. Default 1 (`DEFAULT_OUTPUT_RETRIES`). */
  outputRetries?: number;
  /**
   * Checks on each prompt, in order, before it enters the history and before any model call: one
   * may reject it (stop reason `rejected`, an `input_rejected` event) or rewrite it.
   */
  guardrails?: readonly InputGuardrail[];
  /**
   * The conversation's id: every run of this agent carries it (`agent_start`) until `reset()`, and
   * snapshots keep it (a restored agent goes on in its snapshot's session). Default: a new id.
   */
  sessionId?: string;
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
  /**
   * Hears every event as it is published, before the subscribers of `events$`: for hosts that
   * follow thousands of agents, a plain function costs no subscription objects per agent.
   */
  onEvent?: (event: AgentEvent) => void;
  /**
   * Resolves once the agent's state as of the call is stored where a restore reads it (its host's
   * checkpoint). Given it, a tool batch with a call that is not safe to run twice (a tool neither
   * `readOnly` nor `idempotent`) starts only once it resolves, so a snapshot that is restored in
   * `tool_executing` may hold calls that ran, but never misses one that did: the restored agent
   * gives those calls `INTERRUPTED_BY_RESTORE` instead of running them again. Such a call that
   * finishes while others of its batch still run is kept in the agent's state and this is called
   * again, so a restore gives it its real result, not the interrupted one.
   */
  checkpointed?: () => Promise<void>;
}
