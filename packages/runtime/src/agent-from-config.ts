import { Agent, TroupeError, type AgentOptions, type Clock } from '@troupe/core';
import { createProvider } from '@troupe/providers';
import { createToolRegistry, type ToolOptions, type ToolRegistry } from '@troupe/tools';
import type { AgentConfig, GraphConfig } from './config/graph-config.js';
import { GraphErrorCode } from './config/graph-file-error.js';
import { UnknownAgentError } from './config/unknown-agent-error.js';

/** Options of {@link agentOptionsFromConfig}. */
export interface AgentFromConfigOptions {
  /** Where tool names resolve. Default: `createToolRegistry()`. */
  tools?: ToolRegistry;
  /** Handed to every tool factory. `now` defaults to `clock.now` when a clock is given. */
  toolOptions?: ToolOptions;
  /** The clock of the agent and of a scripted model's delays. Default: the system clock. */
  clock?: Clock;
}

/** The agent's config, or {@link UnknownAgentError}. */
export function agentConfigOf(graph: GraphConfig, name: string): AgentConfig {
  const agent = Object.hasOwn(graph.agents, name) ? graph.agents[name] : undefined;
  if (agent === undefined) throw new UnknownAgentError(name, Object.keys(graph.agents));
  return agent;
}

/**
 * Builds the {@link AgentOptions} of one agent of a loaded graph: a fresh provider for its model
 * (a scripted model starts at the first step), fresh tool instances from the registry, its system
 * prompt, limits and permission rules.
 *
 * Throws {@link UnknownAgentError} for a name the graph does not define, and the provider's or
 * registry's typed error if the graph was not loaded with the same providers and tools.
 */
export function agentOptionsFromConfig(graph: GraphConfig, name: string, options: AgentFromConfigOptions = {}): AgentOptions {
  const agent = agentConfigOf(graph, name);
  const model = Object.hasOwn(graph.models, agent.model) ? graph.models[agent.model] : undefined;
  if (model === undefined) {
    throw new TroupeError(GraphErrorCode.UnknownModel, `agent "${name}" uses the unknown model "${agent.model}"`, { data: { agent: name, model: agent.model } });
  }
  const { clock } = options;
  const provider = createProvider(model.spec, {
    ...(model.script === undefined ? {} : { script: model.script }),
    ...(clock === undefined ? {} : { clock }),
  });
  const registry = options.tools ?? createToolRegistry();
  const toolOptions: ToolOptions = { ...options.toolOptions };
  if (toolOptions.now === undefined && clock !== undefined) toolOptions.now = () => clock.now();
  const agentOptions: AgentOptions = {
    provider,
    model: model.spec.model,
    name: agent.name,
    tools: agent.tools.map((tool) => registry.create(tool, toolOptions)),
  };
  if (agent.systemPrompt !== undefined) agentOptions.systemPrompt = agent.systemPrompt;
  if (agent.limits !== undefined) agentOptions.limits = { ...agent.limits };
  if (agent.permissions !== undefined) agentOptions.permissions = structuredClone(agent.permissions);
  if (clock !== undefined) agentOptions.clock = clock;
  return agentOptions;
}

/** A new {@link Agent} for one agent of a loaded graph; see {@link agentOptionsFromConfig}. */
export function createAgentFromConfig(graph: GraphConfig, name: string, options: AgentFromConfigOptions = {}): Agent {
  return new Agent(agentOptionsFromConfig(graph, name, options));
}
