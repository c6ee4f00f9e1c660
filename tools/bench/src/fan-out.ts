/**
 * Fan-out: 200 agents at once, each 10 turns of 10 parallel tool calls (each call awaits
 * `setImmediate`), then a final text turn. Prints tool calls per second cold (the first run of a
 * fresh process) and warm (the median over repeated runs after it), per second of wall time and
 * of CPU time (`cpu_…`, steadier on a shared machine), and the peak RSS of the process.
 *
 *   node --expose-gc --import tsx src/fan-out.ts [--agents 200] [--runs 5]
 */
import { Agent, type Tool } from '@troupe/core';
import { createScriptedProvider, type ScriptStep } from '@troupe/core/testing';
import { median, numberArg, peakRssMb, report, timed, type Timing } from './measure.js';

const agents = numberArg('agents', 200);
const turns = numberArg('turns', 10);
const callsPerTurn = numberArg('calls', 10);
const runs = numberArg('runs', 5);

const tick: Tool = {
  name: 'tick',
  description: 'Yields to the event loop once.',
  parameters: { type: 'object', properties: { n: { type: 'integer' } } },
  execute: () => new Promise((resolve) => setImmediate(() => resolve({ content: 'ok' }))),
};
const toolTurn: ScriptStep = { toolCalls: Array.from({ length: callsPerTurn }, (_, n) => ({ name: 'tick', arguments: { n } })) };
const script: ScriptStep[] = [...Array.from({ length: turns }, () => toolTurn), { text: 'done' }];

async function once(): Promise<Timing> {
  const team = Array.from(
    { length: agents },
    (_, i) =>
      new Agent({
        provider: createScriptedProvider(script, { recordRequests: false }),
        model: 'bench',
        name: `a${i}`,
        tools: [tick],
        permissions: { mode: 'allow' },
      }),
  );
  const timing = await timed(async () => {
    const results = await Promise.all(team.map((agent) => agent.prompt('go')));
    if (results.some((r) => r.stopReason !== 'stop')) throw new Error('a run did not finish');
  });
  for (const agent of team) agent.dispose();
  return timing;
}

const cold = await once();
globalThis.gc?.();
const timings: Timing[] = [];
for (let i = 0; i < runs; i++) timings.push(await once());
const wall = median(timings.map((t) => t.wall));
const cpu = median(timings.map((t) => t.cpu));
const calls = agents * turns * callsPerTurn;
report({
  workload: 'fan-out',
  agents,
  turns: turns + 1,
  tool_calls: calls,
  runs,
  cold_tool_calls_per_s: Math.round(calls / (cold.wall / 1000)),
  wall_ms: Math.round(wall),
  tool_calls_per_s: Math.round(calls / (wall / 1000)),
  cold_cpu_tool_calls_per_s: Math.round(calls / (cold.cpu / 1000)),
  cpu_tool_calls_per_s: Math.round(calls / (cpu / 1000)),
  rss_mb: peakRssMb(),
});
