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
  /** The agent `troupe run` starts. */
  entry: string;
}
