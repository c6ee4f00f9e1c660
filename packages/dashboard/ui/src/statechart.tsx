/**
 * The agent's statechart (packages/core's machine: idle, thinking, tool_executing, waiting_user,
 * and the final done, aborted, error) drawn with the actor's current state lit.
 */
const NODES: Record<string, { x: number; y: number }> = {
  idle: { x: 4, y: 8 },
  thinking: { x: 124, y: 8 },
  tool_executing: { x: 244, y: 8 },
  done: { x: 4, y: 72 },
  error: { x: 124, y: 72 },
  waiting_user: { x: 244, y: 72 },
  aborted: { x: 244, y: 124 },
};
const W = 100;
const H = 28;
/** Each transition as a straight arrow between two points on the nodes' borders. */
const EDGES: Array<[string, [number, number, number, number]]> = [
  ['idle-thinking', [104, 22, 124, 22]],
  ['thinking-tool_executing', [224, 16, 244, 16]],
  ['tool_executing-thinking', [244, 28, 224, 28]],
  ['tool_executing-waiting_user', [284, 36, 284, 72]],
  ['waiting_user-tool_executing', [304, 72, 304, 36]],
  ['thinking-done', [150, 36, 80, 72]],
  ['thinking-error', [174, 36, 174, 72]],
];

/** The statechart with `state` lit. */
export function Statechart({ state, label }: { state: string; label: string }) {
  return (
    <svg class="chart" viewBox="0 0 350 160" role="img" aria-label={`statechart of ${label}: ${state}`}>
      <defs>
        <marker id="arrow" viewBox="0 0 10 10" refX="9" refY="5" markerWidth="6" markerHeight="6" orient="auto-start-reverse">
          <path d="M0,0 L10,5 L0,10 z" fill="#8a94a6" />
        </marker>
      </defs>
      {EDGES.map(([key, [x1, y1, x2, y2]]) => (
        <line key={key} x1={x1} y1={y1} x2={x2} y2={y2} stroke="#8a94a6" stroke-width="1.2" marker-end="url(#arrow)" />
      ))}
      <text x="110" y="142" class="chart-note">
        ABORT from any state →
      </text>
      {Object.entries(NODES).map(([name, { x, y }]) => {
        const lit = name === state;
        const final = name === 'done' || name === 'aborted' || name === 'error';
        return (
          <g key={name} class={`node ${lit ? `lit lit-${name}` : ''}`} data-state={name} data-lit={lit ? 'true' : 'false'}>
            <rect x={x} y={y} width={W} height={H} rx={final ? 4 : 14} />
            <text x={x + W / 2} y={y + H / 2 + 4} text-anchor="middle">
              {name}
            </text>
          </g>
        );
      })}
    </svg>
  );
}
