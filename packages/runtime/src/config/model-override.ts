import { modelInfoOf, parseModelSpec, ProviderConfigError, ProviderErrorCode } from '@troupe/providers';
import type { GraphConfig, ModelConfig } from './graph-config.js';
import { UnknownAgentError } from './unknown-agent-error.js';

/** The `models` key an override is stored under; not a valid YAML model name, so it cannot clash. */
export const OVERRIDE_MODEL = '--model';

/**
 * A copy of `graph` whose agent `agentName` (default: the entry) runs on `spec` (`provider:model`,
 * what `troupe run --model` gives) instead of its own model. When the provider stays the same,
 * the agent's model options (key, base URL, headers, thinking, caching) carry over; otherwise the
 * new provider starts from its defaults (keys from the environment). The model's context window
 * comes from the catalog. The graph given is not changed.
 *
 * Throws {@link ProviderConfigError} for a spec that does not parse or names a scripted model
 * (which would need a script), and {@link UnknownAgentError} for an agent the graph lacks.
 */
export function withModelOverride(graph: GraphConfig, spec: string, agentName: string = graph.entry): GraphConfig {
  const parsed = parseModelSpec(spec);
  if (parsed.provider === 'scripted') {
    throw new ProviderConfigError(
      ProviderErrorCode.InvalidProviderOptions,
      'a scripted model needs a script, which --model cannot give: define it in the graph file',
      { data: { spec } },
    );
  }
  const agent = Object.hasOwn(graph.agents, agentName) ? graph.agents[agentName] : undefined;
  if (agent === undefined) throw new UnknownAgentError(agentName, Object.keys(graph.agents));
  const current = Object.hasOwn(graph.models, agent.model) ? graph.models[agent.model] : undefined;
  const model: ModelConfig = { name: OVERRIDE_MODEL, spec: parsed };
  const contextWindow = modelInfoOf(parsed)?.contextWindow;
  if (contextWindow !== undefined) model.contextWindow = contextWindow;
  if (current?.options !== undefined && current.spec.provider === parsed.provider) model.options = structuredClone(current.options);
  return {
    ...graph,
    models: { ...graph.models, [OVERRIDE_MODEL]: model },
    agents: { ...graph.agents, [agentName]: { ...agent, model: OVERRIDE_MODEL } },
  };
}
