import type { AgentConfig, GraphConfig, PipelineStepConfig } from './graph-config.js';

/** A Mermaid-safe node id. */
function id(...parts: string[]): string {
  return parts.join('__').replace(/[^A-Za-z0-9_]/g, '_');
}

function label(text: string): string {
  return `"${text.replaceAll('"', '#quot;')}"`;
}

function stepLabel(step: PipelineStepConfig): string {
  switch (step.kind) {
    case 'agent':
      return `${step.id}: ${step.agent}${step.output === undefined ? '' : ' (JSON)'}`;
    case 'map':
      return `${step.id}: map ${step.agent} over ${step.over}`;
    case 'parallel':
      return `${step.id}: parallel`;
  }
}

/** Where an agent's actors run, when it says: `remote`, `at most 2 at once`. */
function placementLabel(agent: AgentConfig): string {
  const parts = [...(agent.placement === 'remote' ? ['remote'] : []), ...(agent.concurrency === undefined ? [] : [`at most ${agent.concurrency} at once`])];
  return parts.length === 0 ? '' : `<br/>${parts.join(', ')}`;
}

/**
 * The graph as a Mermaid flowchart: one node per agent (with its model, and its placement when it
 * sets one; remote agents are drawn dashed, as class `remote`), an edge per delegation, and each
 * pipeline as a subgraph of its steps in order (parallel steps fan out and back in), with a dotted
 * edge from each step to the agent it runs.
 */
export function graphToMermaid(graph: GraphConfig): string {
  const lines = ['flowchart TD'];
  for (const agent of Object.values(graph.agents)) {
    const model = graph.models[agent.model];
    const spec = model === undefined ? agent.model : `${model.spec.provider}:${model.spec.model}`;
    const entry = graph.entry === agent.name ? ' ★' : '';
    lines.push(`  ${id('agent', agent.name)}[${label(`${agent.name}${entry}<br/>${spec}${placementLabel(agent)}`)}]`);
  }
  const remote = Object.values(graph.agents).filter((agent) => agent.placement === 'remote');
  if (remote.length > 0) lines.push('  classDef remote stroke-dasharray: 5 5', `  class ${remote.map((agent) => id('agent', agent.name)).join(',')} remote`);
  for (const agent of Object.values(graph.agents)) {
    for (const child of agent.delegates ?? []) lines.push(`  ${id('agent', agent.name)} -->|delegates| ${id('agent', child)}`);
  }
  for (const pipeline of Object.values(graph.pipelines ?? {})) {
    const entry = graph.entry === pipeline.name ? ' ★' : '';
    lines.push(`  subgraph ${id('pipeline', pipeline.name)}[${label(`pipeline ${pipeline.name}${entry}`)}]`);
    let previous: string[] = [];
    for (const step of pipeline.steps) {
      const node = id('step', pipeline.name, step.id);
      lines.push(`    ${node}[${label(stepLabel(step))}]`);
      const heads = step.kind === 'parallel' ? step.steps.map((sub) => id('step', pipeline.name, step.id, sub.id)) : [node];
      if (step.kind === 'parallel') {
        for (const [i, sub] of step.steps.entries()) lines.push(`    ${heads[i]}[${label(`${sub.id}: ${sub.agent}`)}]`, `    ${node} --> ${heads[i]}`);
      }
      for (const from of previous) lines.push(`    ${from} --> ${node}`);
      previous = step.kind === 'parallel' ? heads : [node];
    }
    lines.push('  end');
    for (const step of pipeline.steps) {
      const runs =
        step.kind === 'parallel'
          ? step.steps.map((sub) => [id('step', pipeline.name, step.id, sub.id), sub.agent] as const)
          : [[id('step', pipeline.name, step.id), step.agent] as const];
      for (const [node, agent] of runs) lines.push(`  ${node} -.-> ${id('agent', agent)}`);
    }
  }
  return `${lines.join('\n')}\n`;
}
