/**
 * Tracing overhead: the turn-overhead workload (one agent, 200 turns each calling a no-op tool)
 * with tracing off and on — `@troupe/otel` writing every span to an SDK tracer whose processor
 * drops them (the cost of building spans, not of exporting them). Both are measured in the same
 * process, interleaved round by round after the same warm-up, so the machine's noise hits both.
 * Prints the medians (µs per turn) with their spreads, and the difference.
 *
 *   node --expose-gc dist/tracing-overhead.js [--turns 200] [--runs 30]
 */
import { BasicTracerProvider, NoopSpanProcessor } from '@opentelemetry/sdk-trace-base';
import { instrument } from '@troupe/otel';
import { median, numberArg, peakRssMb, report, spread } from './measure.js';
import { noopAgent, noopScript } from './noop-agent.js';

const turns = numberArg('turns', 200);
const runs = numberArg('runs', 30);

const script = noopScript(turns);
const tracer = new BasicTracerProvider({ spanProcessors: [new NoopSpanProcessor()] }).getTracer('bench');

/** µs per turn of one run, traced or not: wall time, and CPU time (steadier on a shared machine). */
async function once(traced: boolean): Promise<{ wall: number; cpu: number }> {
  const agent = noopAgent(script);
  const tracing = traced ? instrument(agent, { tracer }) : undefined;
  const cpuBefore = process.cpuUsage();
  const started = performance.now();
  const result = await agent.prompt('go');
  const elapsed = performance.now() - started;
  const cpu = process.cpuUsage(cpuBefore);
  tracing?.stop();
  agent.dispose();
  if (result.stopReason !== 'stop' || result.turns !== turns + 1) throw new Error(`unexpected run: ${result.stopReason} after ${result.turns} turns`);
  return { wall: (elapsed * 1000) / (turns + 1), cpu: (cpu.user + cpu.system) / (turns + 1) };
}

for (let i = 0; i < 50; i++) {
  await once(false);
  await once(true);
}
globalThis.gc?.();
const off: { wall: number; cpu: number }[] = [];
const on: { wall: number; cpu: number }[] = [];
for (let i = 0; i < runs; i++) {
  off.push(await once(false));
  on.push(await once(true));
}
const round = (value: number): number => Math.round(value * 10) / 10;
const figures = (name: string, pick: (run: { wall: number; cpu: number }) => number): Record<string, string | number> => {
  const offs = off.map(pick);
  const ons = on.map(pick);
  const offMedian = median(offs);
  const onMedian = median(ons);
  return {
    [`${name}_off`]: round(offMedian),
    [`${name}_off_spread`]: spread(offs),
    [`${name}_on`]: round(onMedian),
    [`${name}_on_spread`]: spread(ons),
    [`${name}_added`]: round(onMedian - offMedian),
  };
};
report({
  workload: 'tracing-overhead',
  turns: turns + 1,
  runs,
  ...figures('us_per_turn', (run) => run.wall),
  ...figures('cpu_us_per_turn', (run) => run.cpu),
  rss_mb: peakRssMb(),
});
