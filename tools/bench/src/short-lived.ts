/**
 * Short-lived agents: 1,000 agents, one after another, each created, run for 3 turns (two turns
 * of one no-op tool call, then a text answer) and disposed: µs per agent, creation included. Cold
 * is the first 1,000 of a fresh process; warm the median of later rounds of 1,000. Wall time, and
 * CPU time (`cpu_…`), which other processes on the machine disturb less.
 *
 *   node --expose-gc dist/short-lived.js [--agents 1000] [--runs 10]
 */
import { median, numberArg, peakRssMb, report, round1, timed, type Timing } from './measure.js';
import { noopAgent, noopScript } from './noop-agent.js';

const agents = numberArg('agents', 1000);
const runs = numberArg('runs', 10);
const WARM_UP_RUNS = 3;

// One tool object shared by every agent, as a runtime shares the tools of an agent type.
const script = noopScript(2);

/** One round: `agents` agents in a row; µs per agent, of wall and CPU time. */
async function round(): Promise<Timing> {
  const timing = await timed(async () => {
    for (let i = 0; i < agents; i++) {
      const agent = noopAgent(script);
      const result = await agent.prompt('go');
      agent.dispose();
      if (result.stopReason !== 'stop' || result.turns !== 3) throw new Error(`unexpected run: ${result.stopReason} after ${result.turns} turns`);
    }
  });
  return { wall: (timing.wall * 1000) / agents, cpu: (timing.cpu * 1000) / agents };
}

const cold = await round();
for (let i = 1; i < WARM_UP_RUNS; i++) await round();
globalThis.gc?.();
const warm: Timing[] = [];
for (let i = 0; i < runs; i++) warm.push(await round());
report({
  workload: 'short-lived',
  agents,
  turns: 3,
  runs,
  cold_us_per_agent: round1(cold.wall),
  us_per_agent: round1(median(warm.map((t) => t.wall))),
  cold_cpu_us_per_agent: round1(cold.cpu),
  cpu_us_per_agent: round1(median(warm.map((t) => t.cpu))),
  rss_mb: peakRssMb(),
});
