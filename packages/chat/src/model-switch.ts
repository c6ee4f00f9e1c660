import type { AgentChanges } from '@troupe/core';
import { agentConfigOf, agentOptionsFromConfig, withModelOverride, type ActorBuildOptions, type GraphConfig } from '@troupe/runtime';

/** A model the chat's entry can switch to (`/model`): what the agent is configured with, and what the status bar shows. */
export interface ModelSwitch {
  /** `provider:model`, as the status bar shows it. */
  spec: string;
  /** What the agent's next runs call (`Agent.configure`). */
  settings: Pick<AgentChanges, 'provider' | 'model' | 'thinking' | 'maxTokens'>;
  /** The model's context window, when known (the gauge's scale). */
  contextWindow: number | undefined;
}

/** `provider:model` of the model the graph's agent `agentName` runs on. */
export function graphModelSpec(graph: GraphConfig, agentName: string): string {
  const key = agentConfigOf(graph, agentName).model;
  const model = Object.hasOwn(graph.models, key) ? graph.models[key] : undefined;
  return model === undefined ? key : `${model.spec.provider}:${model.spec.model}`;
}

/**
 * The model `name` for the graph's agent `agentName`: a model of the graph by its key (`fast`,
 * scripted ones included), else `provider:model` as `troupe chat --model` takes it (options carry
 * over when the provider stays). Its provider is built here, so a bad name fails now, not at the
 * next turn.
 *
 * Throws `ProviderConfigError` for a name that does not parse, an unknown provider, a scripted
 * `provider:model` (it needs a script) or a missing API key; nothing is changed.
 */
export function graphModelSwitch(graph: GraphConfig, agentName: string, name: string, build: ActorBuildOptions = {}): ModelSwitch {
  const agent = agentConfigOf(graph, agentName);
  const key = name.trim();
  const switched = Object.hasOwn(graph.models, key)
    ? { ...graph, agents: { ...graph.agents, [agentName]: { ...agent, model: key } } }
    : withModelOverride(graph, key, agentName);
  const built = agentOptionsFromConfig(switched, agentName, build);
  const settings: ModelSwitch['settings'] = { provider: built.provider, model: built.model };
  if (built.thinking !== undefined) settings.thinking = built.thinking;
  if (built.maxTokens !== undefined) settings.maxTokens = built.maxTokens;
  return { spec: graphModelSpec(switched, agentName), settings, contextWindow: built.contextWindow };
}
