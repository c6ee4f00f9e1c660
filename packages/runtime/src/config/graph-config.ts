import type { Limits, PermissionRules } from '@troupe/core';
import type { ModelSpec, ScriptStep } from '@troupe/providers';

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
}

/** A named agent of a graph (`agents.<name>`). */
export interface AgentConfig {
  /** Its key under `agents`; also its name in event paths. */
  name: string;
  /** A key of the graph's `models`. */
  model: string;
  systemPrompt?: string;
  /** Tool names, in the order written. */
  tools: string[];
  limits?: Limits;
  permissions?: PermissionRules;
  /** One line saying what the agent does; shown to agents that may delegate to it. */
  description?: string;
  /** The agents it may delegate to (each becomes a `delegate_to_<name>` tool). */
  delegates?: string[];
  /** How deep delegations starting from it may go. */
  maxDepth?: number;
  /** How a failed child of this agent is retried. */
  supervision?: { retries: number; backoffMs: number };
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
 * `models`, each tool is known, `entry` is a key of `agents`. Plain JSON.
 */
export interface GraphConfig {
  version: GraphVersion;
  /** The path of the file it was loaded from, as given to the loader. */
  file: string;
  models: Record<string, ModelConfig>;
  agents: Record<string, AgentConfig>;
  pipelines?: Record<string, PipelineConfig>;
  /** The agent or pipeline `troupe run` starts. */
  entry: string;
}
