/**
 * Turn overhead: one agent on the scripted model, 200 turns each with one call to a no-op tool,
 * then a final text turn. Prints the median µs per turn over repeated runs (after warm-up).
 *
 *   node --expose-gc --import tsx src/turn-overhead.ts [--turns 200] [--runs 30]
 */
import { Agent, type Tool } from '@troupe/core';
import { createScriptedProvider, type ScriptStep } from '@troupe/core/testing';
import { median, numberArg, peakRssMb, report } from './measure.js';

const turns = numberArg('turns', 200);
const runs = numberArg('runs', 30);

const noop: Tool = { name: 'noop', description: 'Does nothing.', parameters: { type: 'object', properties: {} }, execute: () => ({ content: 'ok' }) };
const script: ScriptStep[] = [...Array.from({ length: turns }, () => ({ toolCalls: [{ name: 'noop' }] })), { text: 'done' }];

async function once(): Promise<number> {
  // Every call runs and the run is not capped (the defaults would ask for `noop` and stop at 50 turns).
  const agent = new Agent({
    provider: createScriptedProvider(script, { recordRequests: false }),
    model: 'bench',
    tools: [noop],
    permissions: { mode: 'allow' },
    limits: { maxTurns: Infinity },
  });
  const started = performance.now();
  const result = await agent.prompt('go');
  const elapsed = performance.now() - started;
  agent.dispose();
  if (result.stopReason !== 'stop' || result.turns !== turns + 1) throw new Error(`unexpected run: ${result.stopReason} after ${result.turns} turns`);
  return elapsed;
}

for (let i = 0; i < 50; i++) await once();
globalThis.gc?.();
const walls: number[] = [];
for (let i = 0; i < runs; i++) walls.push(await once());
const wall = median(walls);
report({
  workload: 'turn-overhead',
  turns: turns + 1,
  runs,
  wall_ms: Math.round(wall * 100) / 100,
  us_per_turn: Math.round(((wall * 1000) / (turns + 1)) * 10) / 10,
  rss_mb: peakRssMb(),
});
