/**
 * Delegation round trip in one process: a lead agent delegates 200 times in a row to a child
 * that answers at once, then ends. Prints the median µs per delegation (child actor spawned,
 * run, checkpointed, and its answer returned to the parent's next model call), cold (the first run
 * of a fresh process) and warm (the median over repeated runs after 5 warm-up runs).
 *
 *   node --expose-gc dist/delegation.js [--delegations 200] [--runs 20]
 */
import { createRuntime } from '@troupe/runtime';
import { delegationGraph, timedRun } from './bench-graph.js';
import { median, numberArg, peakRssMb, report } from './measure.js';

const delegations = numberArg('delegations', 200);
const runs = numberArg('runs', 20);

const graph = delegationGraph({ turns: delegations, perTurn: 1 });

function once(): Promise<number> {
  return timedRun(createRuntime({ graph }));
}

const cold = await once();
for (let i = 1; i < 5; i++) await once();
globalThis.gc?.();
const walls: number[] = [];
for (let i = 0; i < runs; i++) walls.push(await once());
const wall = median(walls);
report({
  workload: 'delegation',
  delegations,
  runs,
  cold_us_per_delegation: Math.round(((cold * 1000) / delegations) * 10) / 10,
  wall_ms: Math.round(wall * 100) / 100,
  us_per_delegation: Math.round(((wall * 1000) / delegations) * 10) / 10,
  rss_mb: peakRssMb(),
});
