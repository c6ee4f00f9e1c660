import type { AgentConfig } from './graph-config.js';
import { ReadContext, type ReadState, type Reference } from './read-context.js';

const DELEGATE_PATH = /^agents\.([^.]+)\.delegates\[\d+\]$/;

/**
 * Reports every delegation cycle (`lead → critic → lead`) in which no agent sets `maxDepth`:
 * such a graph could recurse without end. Reported at the `delegates` entry that closes the
 * cycle. Runs once every agent has been read.
 */
export function checkDelegationCycles(state: ReadState, agents: Record<string, AgentConfig>): void {
  const edges = new Map<string, Reference[]>();
  for (const reference of state.references) {
    const from = reference.kind === 'agent' ? DELEGATE_PATH.exec(reference.slot.path)?.[1] : undefined;
    if (from === undefined) continue;
    const list = edges.get(from) ?? [];
    list.push(reference);
    edges.set(from, list);
  }
  const reported = new Set<string>();
  const visit = (name: string, trail: string[]): void => {
    for (const edge of edges.get(name) ?? []) {
      const at = trail.indexOf(edge.name);
      if (at >= 0) {
        const cycle = [...trail.slice(at), edge.name];
        const key = [...new Set(cycle)].sort().join(' ');
        if (!reported.has(key) && !cycle.some((agent) => agents[agent]?.maxDepth !== undefined)) {
          reported.add(key);
          new ReadContext(edge.source, state).report(
            edge.slot,
            `delegation cycle ${cycle.join(' → ')} has no maxDepth`,
            `set maxDepth on ${[...new Set(cycle)].map((agent) => `"${agent}"`).join(' or ')} to bound the recursion`,
          );
        }
        continue;
      }
      if (trail.length < 64) visit(edge.name, [...trail, edge.name]);
    }
  };
  for (const name of edges.keys()) visit(name, [name]);
}
