import type { GraphConfig } from '@troupe/runtime';

/** An agent of the graph as the page draws it. */
export interface AgentView {
  name: string;
  /** The model's name in the graph (`lead`, `openai:gpt-4.1-mini`). */
  model: string;
  description?: string;
  delegates: string[];
  /** `local` (where its parent runs) or `remote` (on a worker). */
  placement: string;
  tools: string[];
}

/** The graph the dashboard starts runs from: agents, who delegates to whom, pipelines. No model settings or keys. */
export interface GraphView {
  file: string;
  entry: string;
  agents: AgentView[];
  pipelines: Array<{ name: string; steps: string[] }>;
}

/** What the page shows of `graph`: names and links only, never a model's options (which may hold keys). */
export function describeGraph(graph: GraphConfig): GraphView {
  return {
    file: graph.file,
    entry: graph.entry,
    agents: Object.values(graph.agents).map((agent) => ({
      name: agent.name,
      model: agent.model,
      ...(agent.description === undefined ? {} : { description: agent.description }),
      delegates: agent.delegates ?? [],
      placement: agent.placement ?? 'local',
      tools: [...agent.tools, ...(agent.mcpTools ?? [])],
    })),
    pipelines: Object.values(graph.pipelines ?? {}).map((pipeline) => ({ name: pipeline.name, steps: pipeline.steps.map((step) => step.id) })),
  };
}
