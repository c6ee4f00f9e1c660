import { exponentialBackoff, TroupeError, type AgentOptions, type InputGuardrail } from '@troupe/core';
import type { AgentConfig, GraphConfig, ModelConfig } from './config/graph-config.js';
import type { GuardrailRegistry } from './guardrails/guardrail-registry.js';
import { GuardrailErrorCode } from './runtime-error-codes.js';

/**
 * The options of a graph agent's runs that come from its `retry`, `toolExecution`, queue modes,
 * `outputSchema`/`outputRetries` and `guardrails` keys, and its model's `temperature` and `topP`:
 * named guardrails are built from `registry` (a getter is called only when one is named), module ones taken from the loaded graph. Throws the
 * registry's typed error (`unknown_guardrail`, `invalid_guardrail_settings`) when the graph was
 * loaded with other guardrails, or `unknown_guardrail` for a module the graph did not load.
 */
export function agentRunOptions(
  graph: GraphConfig,
  agent: AgentConfig,
  model: ModelConfig,
  registry: GuardrailRegistry | (() => GuardrailRegistry),
): Partial<AgentOptions> {
  const options: Partial<AgentOptions> = {};
  if (model.options?.temperature !== undefined) options.temperature = model.options.temperature;
  if (model.options?.topP !== undefined) options.topP = model.options.topP;
  if (agent.retry !== undefined) options.retry = exponentialBackoff(agent.retry);
  if (agent.toolExecution !== undefined) options.toolExecution = { ...agent.toolExecution };
  if (agent.steeringMode !== undefined) options.steeringMode = agent.steeringMode;
  if (agent.followUpMode !== undefined) options.followUpMode = agent.followUpMode;
  if (agent.outputSchema !== undefined) options.outputSchema = agent.outputSchema;
  if (agent.outputRetries !== undefined) options.outputRetries = agent.outputRetries;
  if (agent.guardrails !== undefined) {
    const guardrails: InputGuardrail[] = [];
    // Made only for an agent that lists guardrails: a default registry built per actor is thrown away unused.
    const named = typeof registry === 'function' ? registry() : registry;
    for (const entry of agent.guardrails) {
      if ('name' in entry) {
        guardrails.push(named.create(entry.name, entry.settings));
        continue;
      }
      const loaded = graph.moduleGuardrails?.[entry.module];
      if (loaded === undefined)
        throw new TroupeError(GuardrailErrorCode.Unknown, `agent "${agent.name}" lists the guardrail module ${entry.module}, which the graph did not load`);
      guardrails.push(...loaded);
    }
    options.guardrails = guardrails;
  }
  return options;
}
