/**
 * Delegation round trip in one process: a lead agent delegates 200 times in a row to a child
 * that answers at once, then ends. Prints the median µs per delegation (child actor spawned,
 * run, checkpointed, and its answer returned to the parent's next model call), cold (the first run
 * of a fresh process) and warm (the median over repeated runs after 5 warm-up runs); wall time, and
 * CPU time (`cpu_…`, which includes closing the runtime), which other processes disturb less.
 *
 *   node --expose-gc dist/delegation.js [--delegations 200] [--runs 20]
 */
import { createRuntime } from '@troupe/runtime';
import { delegationGraph, timedRun } from './bench-graph.js';
import { median, numberArg, peakRssMb, report, round1, type Timing } from './measure.js';

const delegations = numberArg('delegations', 200);
const runs = numberArg('runs', 20);

const graph = delegationGraph({ turns: delegations, perTurn: 1 });

/** One run: wall time (the runtime's run, as `timedRun` measures it) and the process's CPU time over it, in ms. */
async function once(): Promise<Timing> {
  const cpu = process.cpuUsage();
  const wall = await timedRun(createRuntime({ graph }));
  const used = process.cpuUsage(cpu);
  return { wall, cpu: (used.user + used.system) / 1000 };
}

const perDelegation = (ms: number): number => round1((ms * 1000) / delegations);

const cold = await once();
for (let i = 1; i < 5; i++) await once();
globalThis.gc?.();
const timings: Timing[] = [];
for (let i = 0; i < runs; i++) timings.push(await once());
const wall = median(timings.map((t) => t.wall));
report({
  workload: 'delegation',
  delegations,
  runs,
  cold_us_per_delegation: perDelegation(cold.wall),
  wall_ms: Math.round(wall * 100) / 100,
  us_per_delegation: perDelegation(wall),
  cold_cpu_us_per_delegation: perDelegation(cold.cpu),
  cpu_us_per_delegation: perDelegation(median(timings.map((t) => t.cpu))),
  rss_mb: peakRssMb(),
});
