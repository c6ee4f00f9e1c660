/**
 * Runs every benchmark in several fresh processes (`--processes`, default 5) one after another and
 * prints, per workload, the median of each figure over the processes with its spread (min–max) as
 * `<figure>_runs`: on a shared machine one process says little. A figure named `cold_…` is the
 * first run of its process, what a freshly started worker feels; the others are warm.
 *
 *   node dist/bench.js [--processes 5] [--only turn-overhead,short-lived] [--remote-processes 1]
 *
 * The remote benchmark starts its own nats-server and worker processes, so it runs once by default.
 * Prints one JSON line per workload; the last line is a JSON object of all of them.
 */
import { spawnSync } from 'node:child_process';
import { median, numberArg, spread } from './measure.js';

const BENCHMARKS = [
  'turn-overhead',
  'tracing-overhead',
  'short-lived',
  'fan-out',
  'delegation',
  'waiting-agents',
  'hibernating-agents',
  'long-run',
  'remote-delegation',
] as const;

const processes = numberArg('processes', 5);
const remoteProcesses = numberArg('remote-processes', 1);
const onlyIndex = process.argv.indexOf('--only');
const only = onlyIndex >= 0 ? new Set((process.argv[onlyIndex + 1] ?? '').split(',')) : undefined;

type Figures = Record<string, string | number>;

/** Runs `name` once in a fresh process; the JSON lines it printed. */
function runOnce(name: string): Figures[] {
  const script = new URL(`./${name}.js`, import.meta.url).pathname;
  const child = spawnSync(process.execPath, ['--expose-gc', script], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'inherit'], maxBuffer: 1 << 24 });
  if (child.status !== 0) throw new Error(`${name} exited with ${child.status ?? child.signal}`);
  return child.stdout
    .split('\n')
    .filter((line) => line.startsWith('{'))
    .map((line) => JSON.parse(line) as Figures);
}

/** The lines of several processes, line by line: numbers as median and spread, anything else from the first process. */
function summarize(runs: Figures[][]): Figures[] {
  return (runs[0] ?? []).map((first, line) => {
    const out: Figures = { processes: runs.length };
    for (const [key, value] of Object.entries(first)) {
      const values = runs.map((lines) => lines[line]?.[key]).filter((v): v is number => typeof v === 'number');
      // Counts that are the same in every process (agents, turns) need no spread.
      if (typeof value !== 'number' || values.every((v) => v === value)) {
        out[key] = value;
        continue;
      }
      out[key] = Math.round(median([...values]) * 10) / 10;
      out[`${key}_runs`] = spread(values);
    }
    return out;
  });
}

const all: Record<string, Figures> = {};
for (const name of BENCHMARKS) {
  if (only !== undefined && !only.has(name)) continue;
  const count = name === 'remote-delegation' ? remoteProcesses : processes;
  const runs = Array.from({ length: count }, () => runOnce(name));
  for (const figures of summarize(runs)) {
    const key = figures['workers'] === undefined ? String(figures['workload']) : `${String(figures['workload'])}-${String(figures['workers'])}`;
    all[key] = figures;
    process.stdout.write(`${JSON.stringify(figures)}\n`);
  }
}
process.stdout.write(`${JSON.stringify(all)}\n`);
