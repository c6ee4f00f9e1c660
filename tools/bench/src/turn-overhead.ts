/**
 * Turn overhead: one agent on the scripted model, 200 turns each with one call to a no-op tool,
 * then a final text turn. Prints µs per turn three ways: cold (the first run of a fresh process),
 * after one warm-up run (the second run: what a short-lived agent of a fresh worker sees), and
 * warm (the median over repeated runs after 50 warm-up runs); wall time, and CPU time (`cpu_…`),
 * which other processes on the machine disturb less.
 *
 *   node --expose-gc dist/turn-overhead.js [--turns 200] [--runs 30]
 */
import { median, numberArg, peakRssMb, report, round1, timed, type Timing } from './measure.js';
import { noopAgent, noopScript } from './noop-agent.js';

const turns = numberArg('turns', 200);
const runs = numberArg('runs', 30);
const WARM_UP_RUNS = 50;

const script = noopScript(turns);

async function once(): Promise<Timing> {
  const agent = noopAgent(script);
  const timing = await timed(async () => {
    const result = await agent.prompt('go');
    if (result.stopReason !== 'stop' || result.turns !== turns + 1) throw new Error(`unexpected run: ${result.stopReason} after ${result.turns} turns`);
  });
  agent.dispose();
  return timing;
}

const perTurn = (wallMs: number): number => round1((wallMs * 1000) / (turns + 1));
const cold = await once();
const afterOne = await once();
for (let i = 2; i < WARM_UP_RUNS; i++) await once();
globalThis.gc?.();
const timings: Timing[] = [];
for (let i = 0; i < runs; i++) timings.push(await once());
const wall = median(timings.map((t) => t.wall));
report({
  workload: 'turn-overhead',
  turns: turns + 1,
  runs,
  cold_us_per_turn: perTurn(cold.wall),
  after_one_warm_up_us_per_turn: perTurn(afterOne.wall),
  wall_ms: Math.round(wall * 100) / 100,
  us_per_turn: perTurn(wall),
  cold_cpu_us_per_turn: perTurn(cold.cpu),
  after_one_warm_up_cpu_us_per_turn: perTurn(afterOne.cpu),
  cpu_us_per_turn: perTurn(median(timings.map((t) => t.cpu))),
  rss_mb: peakRssMb(),
});
