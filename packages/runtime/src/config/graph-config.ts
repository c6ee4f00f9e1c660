import type { Completion, InputGuardrail, Limits, PermissionRules, QueueMode, ThinkingLevel, Tool, ToolExecution } from '@troupe/core';
import type { McpServerConfig } from '@troupe/mcp';
import type { AnthropicCacheOptions, ModelSpec, ScriptStep } from '@troupe/providers';
import type { SandboxPolicy } from '@troupe/tools';

/** The graph file format versions this runtime reads. */
export const SUPPORTED_GRAPH_VERSIONS = [1] as const;

/** One of {@link SUPPORTED_GRAPH_VERSIONS}. */
export type GraphVersion = (typeof SUPPORTED_GRAPH_VERSIONS)[number];

/** A named model of a graph (`models.<name>`). */
export interface ModelConfig {
  /** Its key under `models`. */
  name: string;
  /** The provider and model, parsed from `model: provider:model`. */
  spec: ModelSpec;
  /** The steps a scripted model replays (inline `script`, or the contents of `scriptFile`). */
  script?: ScriptStep[];
  /** How a vendor model is reached and asked (`apiKey`, `baseUrl`, `headers`, `thinking`, `maxTokens`, `cache`). */
  options?: ModelOptions;
  /** The model's context window in tokens: its `contextWindow`, else the providers' catalog's when it knows the model. */
  contextWindow?: number;
}

/**
 * The options of a model entry. `apiKey` holds the key itself (after `${ENV}` substitution): log
 * a config only through the runtime's logger, which redacts `apiKey`.
 */
export interface ModelOptions {
  apiKey?: string;
  baseUrl?: string;
  headers?: Record<string, string>;
  thinking?: ThinkingLevel;
  maxTokens?: number;
  temperature?: number;
  topP?: number;
  /** Anthropic prompt caching: on by default. */
  cache?: boolean | AnthropicCacheOptions;
}

/** How failed model calls are retried (exponential back-off with jitter; see `exponentialBackoff`). */
export interface RetryConfig {
  maxRetries?: number;
  baseDelayMs?: number;
  maxDelayMs?: number;
}

/**
 * One input guardrail of an agent: a named one of the guardrail registry with what was written
 * after its name (`- maxInputLength: 4000`), or every guardrail a module exports (`- module:
 * ./guards/pii.ts`, an absolute path).
 */
export type GuardrailConfig = { name: string; settings?: unknown } | { module: string };

/** The steps of a compaction cascade, by name. */
export const COMPACTION_STRATEGIES = ['tool-results', 'summary', 'drop-oldest'] as const;

/** One of {@link COMPACTION_STRATEGIES}. */
export type CompactionStrategyName = (typeof COMPACTION_STRATEGIES)[number];

/**
 * How an agent compacts its context (`agents.<name>.compaction`): when (`threshold`, a fraction
 * of its model's context window) and with which steps, in order (default: all three). `model` (a
 * key of `models`) writes the summaries instead of the agent's own model; `toolResultBudget` is
 * the tokens an old tool result keeps.
 */
export interface CompactionConfig {
  threshold?: number;
  strategies?: CompactionStrategyName[];
  model?: string;
  toolResultBudget?: number;
}

/**
 * An MCP server of a graph: the `.mcp.json` shape, and for a stdio server that opts in, the
 * sandbox its process runs in (`sandbox:`; stdio servers are not sandboxed unless they say so).
 */
export type GraphMcpServer = McpServerConfig & { sandbox?: SandboxPolicy };

/** The values of an agent's `placement`; see {@link AgentConfig.placement}. */
export const AGENT_PLACEMENTS = ['local', 'remote'] as const;

/** One of {@link AGENT_PLACEMENTS}. */
export type AgentPlacement = (typeof AGENT_PLACEMENTS)[number];

/**
 * A named agent of a graph (`agents.<name>`).
 *
 * Where its actors run is set by `placement`: `local` (the default) runs an actor of this agent
 * in the same process as whoever spawns it (the run's process for an entry or a pipeline step,
 * the parent's process for a delegate); `remote` hands it to the workers listening on NATS when
 * the run uses NATS (`troupe run --nats`). Without NATS every actor runs in one process, so
 * `remote` falls back to local. `concurrency` caps how many actors of this agent one process (or
 * one worker) runs at once; further ones wait their turn.
 */
export interface AgentConfig {
  /** Its key under `agents`; also its name in event paths. */
  name: string;
  /** A key of the graph's `models`. */
  model: string;
  systemPrompt?: string;
  /** Built-in tool names, in the order written, then the names of the tools of its tool modules. */
  tools: string[];
  /** MCP tool selectors (`server.*`, `server.tool`), in the order written. */
  mcpTools?: string[];
  /** The tool modules it lists (`- module: ./tools/weather.ts`), as absolute paths; their tools' names are in `tools`. */
  toolModules?: string[];
  /** Settings of built-in tools, by tool name (`- bash: { timeoutMs: 5000 }`); paths already absolute. */
  toolSettings?: Record<string, Record<string, unknown>>;
  /** The agent's working directory (absolute): bash runs there, file tools are confined to it. */
  workspace?: string;
  /** Its runs' limits; `maxTurns` is `Infinity` for `unlimited` (absent: the default cap of 50). */
  limits?: Limits;
  /** Absent: `smart` (read-only tools run, the others ask). */
  permissions?: PermissionRules;
  /** How its context is compacted; absent: the core's default (80% of the window, all three steps, its own model). */
  compaction?: CompactionConfig;
  /** One line saying what the agent does; shown to agents that may delegate to it. */
  description?: string;
  /** The agents it may delegate to (each becomes a `delegate_to_<name>` tool). */
  delegates?: string[];
  /** How deep delegations starting from it may go. */
  maxDepth?: number;
  /** How a failed child of this agent is retried. */
  supervision?: { retries: number; backoffMs: number };
  /** Where its actors run; absent means `local`. */
  placement?: AgentPlacement;
  /** How its tools' processes (`bash`) are confined; absent means `auto` (see `SandboxPolicy`). */
  sandbox?: SandboxPolicy;
  /** The most actors of this agent one process (or worker) runs at once; absent means no cap. */
  concurrency?: number;
  /**
   * `task`: only `task_complete` (or a limit, an abort, an error) ends a run, and the agent gets
   * the `task_complete` tool if it does not list it; absent means `reply`.
   */
  completion?: Completion;
  /** The pause before each model call of a run after its first, in ms. */
  stepDelayMs?: number;
  /** How failed model calls are retried (absent: 5 retries from 1 s, capped at 60 s). */
  retry?: RetryConfig;
  /** How the calls of one turn run (absent: in parallel). */
  toolExecution?: ToolExecution;
  /** How queued steering / follow-up messages are delivered (absent: one per turn). */
  steeringMode?: QueueMode;
  followUpMode?: QueueMode;
  /** The JSON Schema its final answer must match (the run's value is the parsed answer). */
  outputSchema?: Record<string, unknown>;
  /** How many times an answer that does not match `outputSchema` is asked for again (absent: 1). */
  outputRetries?: number;
  /** Checks on each prompt before the first model call, in order. */
  guardrails?: GuardrailConfig[];
}

/** Ask a step's agent for JSON that matches `schema`; an invalid reply is retried `retries` times. */
export interface StepOutputConfig {
  schema: Record<string, unknown>;
  retries?: number;
}

/** Fields every pipeline step has. */
export interface StepBase {
  /** Unique within its pipeline; later steps read its output as `{{steps.<id>.output}}`. */
  id: string;
  /** Record the failure (output `null`) and go on instead of failing the pipeline. */
  continueOnError?: boolean;
}

/** Run one agent on a templated input. */
export interface AgentStepConfig extends StepBase {
  kind: 'agent';
  agent: string;
  /** A template over `{{input}}` and `{{steps.<id>.output…}}`. */
  input: string;
  output?: StepOutputConfig;
}

/** Run agent steps at once; the output is an object keyed by their ids. */
export interface ParallelStepConfig extends StepBase {
  kind: 'parallel';
  steps: AgentStepConfig[];
}

/** Run one agent per item of a JSON list an earlier step produced; the output is the list of outputs. */
export interface MapStepConfig extends StepBase {
  kind: 'map';
  /** A template that must resolve to a list, e.g. `{{steps.outline.output}}`. */
  over: string;
  /** At most this many items at once. Default 4. */
  concurrency?: number;
  agent: string;
  /** A template that may also use `{{item}}` and `{{index}}`. */
  input: string;
  output?: StepOutputConfig;
}

/** One step of a pipeline. */
export type PipelineStepConfig = AgentStepConfig | ParallelStepConfig | MapStepConfig;

/** A named pipeline of a graph (`pipelines.<name>`). */
export interface PipelineConfig {
  name: string;
  description?: string;
  steps: PipelineStepConfig[];
}

/**
 * A loaded, validated graph file. Every reference in it resolves: each agent's model is a key of
 * `models`, each tool is known, `entry` is a key of `agents`. Plain JSON, but for `moduleTools`,
 * the code its tool modules export.
 */
export interface GraphConfig {
  version: GraphVersion;
  /** The path of the file it was loaded from, as given to the loader. */
  file: string;
  models: Record<string, ModelConfig>;
  agents: Record<string, AgentConfig>;
  pipelines?: Record<string, PipelineConfig>;
  /** MCP servers agents take tools from (`mcpServers.<name>`), in the `.mcp.json` shape. */
  mcpServers?: Record<string, GraphMcpServer>;
  /** The agent or pipeline `troupe run` starts. */
  entry: string;
  /** The tools the agents' tool modules export, by name (unique across the graph and apart from the built-in tools). */
  moduleTools?: Record<string, Tool>;
  /** The guardrails the agents' guardrail modules export, by the module's absolute path. */
  moduleGuardrails?: Record<string, InputGuardrail[]>;
}
