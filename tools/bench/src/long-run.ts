/**
 * Long run: one agent, 1,000 turns of tool calls on the scripted model with an 8,000-token
 * context window and the compaction cascade on (shortened tool results, summaries by a scripted
 * summarizer, dropped turns). Prints the µs per turn near turn 100 (turns 51–150) and near turn
 * 1,000 (turns 901–1,000) — mean, compactions included, and median — as medians over repeated runs
 * after warm-up, and the means of the first run of the process (cold); then, in one more run, the RSS after a full GC every 100 turns (the whole history
 * is kept, by design: `history_json_mb` is its size at the end).
 *
 *   node --expose-gc --import tsx src/long-run.ts [--turns 1000] [--runs 10]
 */
import { Agent, dropOldestTurns, summarizeOlderTurns, truncateToolResults, type Tool } from '@troupe/core';
import { createScriptedProvider, type ScriptStep } from '@troupe/core/testing';
import { mb, median, numberArg, report } from './measure.js';

const turns = numberArg('turns', 1000);
const runs = numberArg('runs', 10);
const WINDOW = 8000;

/** Output of the n-th call: 2,000 characters, and 16,000 every tenth call. */
const output = (n: number): string => `call ${n}\n${'o'.repeat(n % 10 === 0 ? 16_000 : 2000)}`;
const work: Tool = {
  name: 'work',
  description: 'Does a step of the work.',
  parameters: { type: 'object', properties: { n: { type: 'number' } } },
  readOnly: true,
  execute: (args) => ({ content: output(Number(args['n'])) }),
};
const script: ScriptStep[] = [
  ...Array.from({ length: turns - 1 }, (_, i) => ({ text: `Step ${i + 1}: on it.`, toolCalls: [{ name: 'work', arguments: { n: i + 1 } }] })),
  { text: 'All done.' },
];
const summaries: ScriptStep[] = Array.from({ length: turns }, (_, i) => ({ text: `Goals: do the work. Progress: summary ${i + 1}.` }));

/** One run; `onTurn(turn)` is called as each turn starts. Returns when each turn started (ms) and when the run ended. */
async function once(onTurn?: (turn: number) => void): Promise<{ starts: number[]; end: number; compactions: number; historyMb: number }> {
  const summarizer = createScriptedProvider(summaries, { recordRequests: false });
  const agent = new Agent({
    provider: createScriptedProvider(script, { recordRequests: false, inputFromSize: true }),
    model: 'bench',
    tools: [work],
    contextWindow: WINDOW,
    limits: { maxTurns: Number.POSITIVE_INFINITY },
    permissions: { mode: 'allow' },
    compaction: { strategies: [truncateToolResults(), summarizeOlderTurns({ summarizer: { provider: summarizer, model: 'small' } }), dropOldestTurns()] },
  });
  const starts: number[] = [];
  let compactions = 0;
  agent.events$.subscribe((event) => {
    if (event.type === 'turn_start') {
      starts.push(performance.now());
      onTurn?.(event.turn);
    } else if (event.type === 'compaction') {
      compactions++;
    }
  });
  const result = await agent.prompt('Do the work, one step at a time.');
  const end = performance.now();
  const history = agent.messages.length;
  const historyMb = JSON.stringify(agent.messages).length / 1024 / 1024;
  agent.dispose();
  if (result.stopReason !== 'stop' || result.turns !== turns || history !== 2 * turns)
    throw new Error(`unexpected run: ${result.stopReason} after ${result.turns} turns, ${history} messages`);
  return { starts, end, compactions, historyMb };
}

/** Duration of each turn in µs (turn k runs from its start to the next turn's start, the last to the end). */
function durations({ starts, end }: { starts: number[]; end: number }): number[] {
  return starts.map((start, i) => ((starts[i + 1] ?? end) - start) * 1000);
}

const mean = (values: number[]): number => values.reduce((a, b) => a + b, 0) / values.length;
const round = (value: number): number => Math.round(value * 10) / 10;

// Cold: the first run of a fresh process.
const coldTurns = durations(await once());
for (let i = 1; i < 3; i++) await once();
globalThis.gc?.();
const early: number[] = [];
const late: number[] = [];
const earlyMedian: number[] = [];
const lateMedian: number[] = [];
let compactions = 0;
for (let i = 0; i < runs; i++) {
  const run = await once();
  compactions = run.compactions;
  const each = durations(run);
  const near100 = each.slice(50, 150);
  const near1000 = each.slice(Math.max(0, turns - 100), turns);
  early.push(mean(near100));
  late.push(mean(near1000));
  earlyMedian.push(median([...near100]));
  lateMedian.push(median([...near1000]));
}

globalThis.gc?.();
const rss: number[] = [];
const { historyMb } = await once((turn) => {
  if (turn % 100 !== 0) return;
  globalThis.gc?.();
  rss.push(mb(process.memoryUsage().rss));
});

report({
  workload: 'long-run',
  turns,
  runs,
  window_tokens: WINDOW,
  compactions,
  cold_us_per_turn_near_100: round(mean(coldTurns.slice(50, 150))),
  cold_us_per_turn_near_1000: round(mean(coldTurns.slice(Math.max(0, turns - 100), turns))),
  us_per_turn_near_100: round(median(early)),
  us_per_turn_near_1000: round(median(late)),
  median_us_per_turn_near_100: round(median(earlyMedian)),
  median_us_per_turn_near_1000: round(median(lateMedian)),
  rss_mb_every_100_turns: rss.join(' '),
  history_json_mb: round(historyMb),
});
