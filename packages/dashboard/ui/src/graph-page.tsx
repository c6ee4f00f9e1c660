/** The graph runs are started from: each agent with its model, placement and tools, who it delegates to, and the pipelines. */
import type { GraphView } from './types.js';

/** The agents by delegation depth from the entry (agents no one reaches come last). */
function columns(graph: GraphView): string[][] {
  const byName = new Map(graph.agents.map((a) => [a.name, a]));
  const depth = new Map<string, number>([[graph.entry, 0]]);
  const queue = [graph.entry];
  while (queue.length > 0) {
    const name = queue.shift() as string;
    for (const next of byName.get(name)?.delegates ?? []) {
      if (depth.has(next)) continue;
      depth.set(next, (depth.get(name) ?? 0) + 1);
      queue.push(next);
    }
  }
  const cols: string[][] = [];
  for (const agent of graph.agents) {
    const d = depth.get(agent.name) ?? Math.max(0, ...depth.values()) + 1;
    const col = cols[d] ?? [];
    col.push(agent.name);
    cols[d] = col;
  }
  return cols.filter((c) => c !== undefined);
}

export function GraphPage({ graph }: { graph: GraphView }) {
  const cols = columns(graph);
  const pos = new Map<string, { x: number; y: number }>();
  for (const [i, col] of cols.entries()) for (const [j, name] of col.entries()) pos.set(name, { x: 20 + i * 260, y: 20 + j * 110 });
  const width = 20 + cols.length * 260;
  const height = 20 + Math.max(1, ...cols.map((c) => c.length)) * 110;
  return (
    <section class="graph">
      <h2>{graph.file}</h2>
      <svg viewBox={`0 0 ${width} ${height}`} width={width} height={height} role="img" aria-label="agent graph">
        <defs>
          <marker id="garrow" viewBox="0 0 10 10" refX="9" refY="5" markerWidth="7" markerHeight="7" orient="auto">
            <path d="M0,0 L10,5 L0,10 z" fill="#8a94a6" />
          </marker>
        </defs>
        {graph.agents.flatMap((agent) =>
          agent.delegates.map((to) => {
            const a = pos.get(agent.name);
            const b = pos.get(to);
            if (a === undefined || b === undefined) return null;
            return (
              <path
                key={`${agent.name}-${to}`}
                d={`M${a.x + 200},${a.y + 36} C${a.x + 230},${a.y + 36} ${b.x - 30},${b.y + 36} ${b.x},${b.y + 36}`}
                fill="none"
                stroke="#8a94a6"
                marker-end="url(#garrow)"
              />
            );
          }),
        )}
        {graph.agents.map((agent) => {
          const p = pos.get(agent.name) ?? { x: 0, y: 0 };
          return (
            <g key={agent.name} class={`gnode ${agent.placement}`}>
              <rect x={p.x} y={p.y} width="200" height="72" rx="8" />
              <text x={p.x + 10} y={p.y + 20} class="gname">
                {agent.name}
                {agent.name === graph.entry ? ' (entry)' : ''}
              </text>
              <text x={p.x + 10} y={p.y + 40}>
                model {agent.model} · {agent.placement}
              </text>
              <text x={p.x + 10} y={p.y + 58} class="gtools">
                {agent.tools.length === 0 ? 'no tools' : agent.tools.join(', ').slice(0, 34)}
              </text>
            </g>
          );
        })}
      </svg>
      {graph.pipelines.length > 0 && (
        <>
          <h3>Pipelines</h3>
          <ul>
            {graph.pipelines.map((p) => (
              <li key={p.name}>
                <strong>{p.name}</strong>: {p.steps.join(' → ')}
              </li>
            ))}
          </ul>
        </>
      )}
    </section>
  );
}
