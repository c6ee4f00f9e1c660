import { NOTICE_MODEL, type AgentOptions, type AgentSnapshot, type Clock, type RunId } from '@troupe/core';
import { createScriptedProvider, type ProviderEnv } from '@troupe/providers';
import type { McpHub } from '@troupe/mcp';
import type { ToolRegistry } from '@troupe/tools';
import { agentConfigOf, agentOptionsFromConfig, type AgentFromConfigOptions } from '../agent-from-config.js';
import { withExtraTools } from '../mcp/agent-mcp-tools.js';
import type { GraphConfig } from '../config/graph-config.js';
import type { ChildRecord, RunStore } from '../store/run-store.js';
import { createDelegationTool, type DelegationTarget, type SupervisionPolicy } from './delegation-tool.js';
import type { ActorFactory } from './actor-host.js';
import type { Instrumentation } from './instrumentation.js';

/** The delegation depth used when neither the agent nor the runtime sets one. */
export const DEFAULT_MAX_DEPTH = 8;

/** How a graph's actors are built: shared by {@link graphActorFactory} and the runtime's options. */
export interface ActorBuildOptions {
  clock?: Clock;
  tools?: ToolRegistry;
  /** The graph's MCP servers, connected for the agents' selectors (see `connectMcpServers`). */
  mcp?: McpHub;
  /** Where vendor providers read their API keys. Default: `process.env`. */
  env?: ProviderEnv;
  /** The delegation depth for agents that set none. */
  maxDepth?: number;
  /** How failed children are retried, for agents that set no policy. */
  supervision?: SupervisionPolicy;
  /** Follows runs, steps and actors for tracing and metrics (`@troupe/otel`). */
  instrumentation?: Instrumentation;
}

/** Options of {@link graphActorFactory}. */
export interface GraphActorFactoryOptions extends ActorBuildOptions {
  store: RunStore;
  sleep(ms: number, signal: AbortSignal): Promise<void>;
  /** Failures of background writes of the actors' delegations. */
  onError?: (error: unknown) => void;
}

/**
 * Builds actors from a loaded graph: the agent's provider, tools, prompt and limits, plus one
 * delegation tool per agent it may delegate to. A scripted model restored from a snapshot goes on
 * from the reply after the last one in its history. Tools report the process groups they start
 * to the store's `processes`, when it keeps them.
 */
export function graphActorFactory(graph: GraphConfig, options: GraphActorFactoryOptions): ActorFactory {
  // One target object per agent, made once, not per parent.
  const targets = new Map<string, DelegationTarget>();
  const targetOf = (name: string): DelegationTarget => {
    let target = targets.get(name);
    if (target === undefined) {
      const description = graph.agents[name]?.description;
      target = description === undefined ? { name } : { name, description };
      targets.set(name, target);
    }
    return target;
  };
  // The same for every actor: made once.
  const build: AgentFromConfigOptions = {};
  if (options.clock !== undefined) build.clock = options.clock;
  if (options.tools !== undefined) build.tools = options.tools;
  if (options.mcp !== undefined) build.mcp = options.mcp;
  if (options.env !== undefined) build.env = options.env;
  return (request, transport) => {
    const config = agentConfigOf(graph, request.agent);
    const processes = options.store.processes;
    // Only tools report process groups: an agent without any builds with the shared options.
    const own =
      processes === undefined || config.tools.length === 0
        ? build
        : { ...build, toolOptions: { processGroups: { started: (pgid: number) => processes.started(request.runId, pgid) } } };
    const base = agentOptionsFromConfig(graph, request.agent, own);
    if (config.delegates === undefined || config.delegates.length === 0) return withScript(base);
    let earlier: Promise<readonly ChildRecord[]> | undefined;
    const earlierChildren = (runId: RunId): Promise<readonly ChildRecord[]> => (earlier ??= options.store.children(runId, request.path));
    const delegations = config.delegates.map((name) =>
      createDelegationTool(targetOf(name), {
        transport,
        store: options.store,
        parent: request.path,
        depth: request.depth,
        maxDepth: config.maxDepth ?? options.maxDepth ?? DEFAULT_MAX_DEPTH,
        supervision: config.supervision ?? options.supervision ?? { retries: 0, backoffMs: 1000 },
        sleep: options.sleep,
        restored: request.snapshot !== undefined,
        earlierChildren,
        ...(options.onError === undefined ? {} : { onError: options.onError }),
        ...(options.instrumentation === undefined ? {} : { instrumentation: options.instrumentation }),
      }),
    );
    // `base` is this actor's own object: no copy of it.
    base.tools = withExtraTools(base.tools, delegations);
    return withScript(base);

    /** A scripted model restored from a snapshot goes on from the reply after its history's last one. */
    function withScript(agentOptions: AgentOptions): AgentOptions {
      if (request.snapshot === undefined) return agentOptions;
      const script = graph.models[config.model]?.script;
      if (script !== undefined) {
        const clock = options.clock;
        agentOptions.provider = createScriptedProvider(script, {
          startAt: repliesIn(request.snapshot),
          recordRequests: false,
          ...(clock === undefined ? {} : { clock }),
        });
      }
      return agentOptions;
    }
  };
}

/** The script steps a snapshot's history played: its assistant messages, but for the notices the agent wrote itself. */
function repliesIn(snapshot: AgentSnapshot): number {
  return snapshot.context.messages.filter((m) => m.role === 'assistant' && m.model !== NOTICE_MODEL).length;
}
