import { createHash } from 'node:crypto';
import { dirname } from 'node:path';
import type { GraphConfig } from '@troupe/runtime';

/** Settings that may differ between machines running the same graph: secrets and their carriers. */
const MACHINE_LOCAL = new Set(['apiKey', 'headers', 'env']);

/**
 * A short fingerprint of what a graph means: every section but the entry, with keys in a fixed order, but not
 * where the file lies (paths are taken relative to the graph file, which two machines keep in
 * different places) nor its secrets (each machine has its own keys). A coordinator stamps each
 * task with it, and a worker refuses a task stamped with another graph's fingerprint.
 */
export function graphHash(graph: GraphConfig): string {
  // The entry is what a run starts with (`--entry` picks another), not part of what agents mean.
  const { file, entry: _entry, ...meaning } = graph;
  const home = dirname(file);
  return createHash('sha256').update(canonicalJson(meaning, home)).digest('hex').slice(0, 16);
}

/** JSON with object keys sorted (so equal values give equal text), paths under `home` made relative. */
function canonicalJson(value: unknown, home: string): string {
  if (Array.isArray(value)) return `[${value.map((v) => canonicalJson(v, home)).join(',')}]`;
  if (value !== null && typeof value === 'object') {
    const entries = Object.entries(value)
      .filter(([k, v]) => v !== undefined && !MACHINE_LOCAL.has(k))
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonicalJson(v, home)}`).join(',')}}`;
  }
  if (typeof value === 'string' && value.startsWith(home)) return JSON.stringify(`<graph>${value.slice(home.length)}`);
  return JSON.stringify(value) ?? 'null';
}
