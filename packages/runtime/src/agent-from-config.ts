import { Agent, TroupeError, type AgentOptions, type Clock, type Provider, type Tool } from '@troupe/core';
import { createProvider, type CreateProviderOptions, type ProviderEnv } from '@troupe/providers';
import type { McpHub } from '@troupe/mcp';
import { dirname, join } from 'node:path';
import { DEFAULT_SANDBOX_POLICY, type SandboxPolicy, type ToolOptions, type ToolRegistry } from '@troupe/tools';
import { compactionOptions } from './compaction-from-config.js';
import type { AgentConfig, GraphConfig, ModelConfig } from './config/graph-config.js';
import { GraphErrorCode } from './runtime-error-codes.js';
import { UnknownAgentError } from './config/unknown-agent-error.js';
import { agentRunOptions } from './agent-run-options.js';
import { defaultToolRegistry } from './default-tools.js';
import { defaultGuardrailRegistry, type GuardrailRegistry } from './guardrails/guardrail-registry.js';
import { mcpToolSource, permissionsWithMcp } from './mcp/agent-mcp-tools.js';

/** Options of {@link agentOptionsFromConfig}. */
export interface AgentFromConfigOptions {
  /** Where tool names resolve. Default: `defaultToolRegistry()` (every tool of `@troupe/tools`). */
  tools?: ToolRegistry;
  /** The graph's MCP servers (`createGraphMcpHub`), connected for this agent's selectors (`connectMcpServers`). */
  mcp?: McpHub;
  /** Handed to every tool factory. `now` defaults to `clock.now` when a clock is given. */
  toolOptions?: ToolOptions;
  /** The clock of the agent and of a scripted model's delays. Default: the system clock. */
  clock?: Clock;
  /** Where vendor providers read their API keys. Default: `process.env`. */
  env?: ProviderEnv;
  /** Where guardrail names resolve. Default: `defaultGuardrailRegistry()` (the built-in ones). */
  guardrails?: GuardrailRegistry;
}

/** The agent's config, or {@link UnknownAgentError}. */
export function agentConfigOf(graph: GraphConfig, name: string): AgentConfig {
  const agent = Object.hasOwn(graph.agents, name) ? graph.agents[name] : undefined;
  if (agent === undefined) throw new UnknownAgentError(name, Object.keys(graph.agents));
  return agent;
}

/**
 * Builds the {@link AgentOptions} of one agent of a loaded graph: a fresh provider for its model
 * (a scripted model starts at the first step; a vendor model with its key, base URL, headers and
 * caching), the model's thinking level, output limit and context window, its compaction settings
 * (a summary model gets its own fresh provider), fresh tool instances from the registry
 * (with the agent's workspace and each tool's settings), the tools of its tool modules (the same
 * objects for every agent: a module's tools are shared), tools from the MCP hub (its `server.*` /
 * `server.tool` selectors, resolved against the servers' current tool lists), its system prompt,
 * limits and permission rules (MCP selectors in them expanded to the tools' names), its completion
 * mode and step delay, and its run settings (see `agentRunOptions`: retries, tool execution, queue
 * modes, output schema, guardrails, sampling). Left out, limits and permissions take the core's
 * safe defaults (a cap of 50 model calls; `smart` approvals).
 *
 * Throws {@link UnknownAgentError} for a name the graph does not define, and the provider's or
 * registry's typed error if the graph was not loaded with the same providers and tools. An agent
 * with MCP tools needs `mcp`, connected for its servers: else, or when a selector matches no tool
 * of the running server, an `McpAdapterError` (`mcp_unavailable`, `mcp_bad_selector`).
 */
export function agentOptionsFromConfig(graph: GraphConfig, name: string, options: AgentFromConfigOptions = {}): AgentOptions {
  const agent = agentConfigOf(graph, name);
  const model = modelOf(graph, agent.model, name);
  const { clock } = options;
  const provider = providerFor(model, options);
  // An agent without tools (many a sub-agent) needs no registry nor tool options.
  const listed = agent.tools.length === 0 ? [] : toolsOf(graph, agent, options);
  const agentOptions: AgentOptions = {
    provider,
    model: model.spec.model,
    name: agent.name,
    tools: (agent.mcpTools?.length ?? 0) === 0 ? listed : mcpToolSource(agent, options.mcp, listed),
  };
  if (model.options?.thinking !== undefined) agentOptions.thinking = model.options.thinking;
  if (model.options?.maxTokens !== undefined) agentOptions.maxTokens = model.options.maxTokens;
  if (model.contextWindow !== undefined) agentOptions.contextWindow = model.contextWindow;
  if (agent.compaction !== undefined) {
    agentOptions.compaction = compactionOptions(agent.compaction, (key) => {
      const summarizer = modelOf(graph, key, name);
      return { provider: providerFor(summarizer, options), model: summarizer.spec.model };
    });
  }
  if (agent.systemPrompt !== undefined) agentOptions.systemPrompt = agent.systemPrompt;
  if (agent.limits !== undefined) agentOptions.limits = { ...agent.limits };
  if (agent.permissions !== undefined) agentOptions.permissions = permissionsWithMcp(structuredClone(agent.permissions), options.mcp);
  if (agent.completion !== undefined) agentOptions.completion = agent.completion;
  if (agent.stepDelayMs !== undefined) agentOptions.stepDelayMs = agent.stepDelayMs;
  if (clock !== undefined) agentOptions.clock = clock;
  Object.assign(agentOptions, agentRunOptions(graph, agent, model, options.guardrails ?? defaultGuardrailRegistry));
  return agentOptions;
}

/** Fresh instances of the agent's tools from the registry (with its workspace and each tool's settings), and its modules' tools. */
function toolsOf(graph: GraphConfig, agent: AgentConfig, options: AgentFromConfigOptions): Tool[] {
  const { clock } = options;
  const registry = options.tools ?? defaultToolRegistry();
  const toolOptions: ToolOptions = { ...options.toolOptions };
  if (toolOptions.now === undefined && clock !== undefined) toolOptions.now = () => clock.now();
  if (agent.workspace !== undefined) toolOptions.workspace = agent.workspace;
  toolOptions.sandbox = sandboxOf(graph, agent.sandbox ?? toolOptions.sandbox);
  const settingsOf = (tool: string): ToolOptions => {
    const settings = agent.toolSettings?.[tool];
    return settings === undefined ? toolOptions : { ...toolOptions, settings };
  };
  const fromModules = graph.moduleTools ?? {};
  return agent.tools.map((tool) => (Object.hasOwn(fromModules, tool) ? fromModules[tool] : undefined) ?? registry.create(tool, settingsOf(tool)));
}

function modelOf(graph: GraphConfig, key: string, agent: string): ModelConfig {
  const model = Object.hasOwn(graph.models, key) ? graph.models[key] : undefined;
  if (model === undefined) {
    throw new TroupeError(GraphErrorCode.UnknownModel, `agent "${agent}" uses the unknown model "${key}"`, { data: { agent, model: key } });
  }
  return model;
}

/** A fresh provider for a model of the graph (a scripted one starts at its first step). */
function providerFor(model: ModelConfig, options: AgentFromConfigOptions): Provider {
  const providerOptions: CreateProviderOptions = {};
  if (model.script !== undefined) providerOptions.script = model.script;
  if (options.clock !== undefined) providerOptions.clock = options.clock;
  if (options.env !== undefined) providerOptions.env = options.env;
  const { apiKey, baseUrl, headers, cache } = model.options ?? {};
  if (apiKey !== undefined) providerOptions.apiKey = apiKey;
  if (baseUrl !== undefined) providerOptions.baseUrl = baseUrl;
  if (headers !== undefined) providerOptions.headers = headers;
  if (cache !== undefined) providerOptions.cache = cache;
  return createProvider(model.spec, providerOptions);
}

/** A new {@link Agent} for one agent of a loaded graph; see {@link agentOptionsFromConfig}. */
export function createAgentFromConfig(graph: GraphConfig, name: string, options: AgentFromConfigOptions = {}): Agent {
  return new Agent(agentOptionsFromConfig(graph, name, options));
}

/** The sandbox policies made so far, by graph and by the policy they extend: agents of one graph share them. */
const sandboxes = new WeakMap<GraphConfig, WeakMap<SandboxPolicy, SandboxPolicy>>();

/** An agent's sandbox policy: its own (else `auto`), with the graph's `.env` hidden from its tools too; made once per graph and policy. */
function sandboxOf(graph: GraphConfig, policy: SandboxPolicy = DEFAULT_SANDBOX_POLICY): SandboxPolicy {
  let made = sandboxes.get(graph);
  if (made === undefined) {
    made = new WeakMap();
    sandboxes.set(graph, made);
  }
  let sandbox = made.get(policy);
  if (sandbox === undefined) {
    sandbox = { ...policy, denyRead: [...(policy.denyRead ?? []), join(dirname(graph.file), '.env')] };
    made.set(policy, sandbox);
  }
  return sandbox;
}
