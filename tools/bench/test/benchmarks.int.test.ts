/**
 * Every benchmark runs and reports the figures issue 19 asks of it, at sizes small enough for a
 * test: a cold and a warm figure, the memory readings, the remote round trip next to a raw
 * request, the stored messages, and scale-out as the 2 workers' over the 1's. It asserts what is
 * reported, never how fast: speed is the benchmarks' business, on a quiet machine. And `npm run
 * bench` runs them in several processes and gives each figure's spread over them.
 */
import { spawnSync } from 'node:child_process';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const bench = join(dirname(fileURLToPath(import.meta.url)), '..');
const root = join(bench, '../..');

type Figures = Record<string, string | number>;

/** Runs `command` and returns the JSON lines it printed; fails with its stderr when it exits otherwise than 0. */
function jsonLines(command: string, args: string[], cwd: string): Figures[] {
  const run = spawnSync(command, args, { cwd, encoding: 'utf8', maxBuffer: 1 << 24 });
  expect(run.status, `${command} ${args.join(' ')} exited ${run.status ?? run.signal}:\n${run.stderr}`).toBe(0);
  return run.stdout
    .split('\n')
    .filter((line) => line.startsWith('{'))
    .map((line) => JSON.parse(line) as Figures);
}

/** The one line of `script`, run in a fresh process on `args`. */
function figuresOf(script: string, args: string[]): Figures {
  const lines = jsonLines(process.execPath, ['--expose-gc', join(bench, 'dist', `${script}.js`), ...args], bench);
  expect(lines).toHaveLength(1);
  return lines[0]!;
}

/** Each of `names` is a finite number in `figures`. */
function expectNumbers(figures: Figures, names: string[]): void {
  for (const name of names) expect(Number.isFinite(figures[name]), `${String(figures['workload'])}: ${name} = ${String(figures[name])}`).toBe(true);
}

describe('the benchmarks', () => {
  it('turn overhead: cold, after one warm-up run, and warm, of wall and CPU time', () => {
    const figures = figuresOf('turn-overhead', ['--turns', '5', '--runs', '2']);
    expect(figures['workload']).toBe('turn-overhead');
    expectNumbers(figures, [
      'cold_us_per_turn',
      'after_one_warm_up_us_per_turn',
      'us_per_turn',
      'cold_cpu_us_per_turn',
      'after_one_warm_up_cpu_us_per_turn',
      'cpu_us_per_turn',
    ]);
  });

  it('short-lived agents, fan-out and in-process delegation: a cold and a warm figure each', () => {
    expectNumbers(figuresOf('short-lived', ['--agents', '20', '--runs', '2']), ['cold_us_per_agent', 'us_per_agent', 'rss_mb']);
    expectNumbers(figuresOf('fan-out', ['--agents', '5', '--turns', '2', '--calls', '2', '--runs', '2']), [
      'cold_tool_calls_per_s',
      'tool_calls_per_s',
      'rss_mb',
    ]);
    expectNumbers(figuresOf('delegation', ['--delegations', '10', '--runs', '2']), ['cold_us_per_delegation', 'us_per_delegation', 'rss_mb']);
  });

  it('tracing overhead and a long run with compaction', () => {
    expectNumbers(figuresOf('tracing-overhead', ['--turns', '5', '--runs', '2']), ['us_per_turn_off', 'us_per_turn_on', 'us_per_turn_added']);
    const long = figuresOf('long-run', ['--turns', '160', '--runs', '1']);
    expectNumbers(long, ['compactions', 'us_per_turn_near_100', 'us_per_turn_near_1000', 'history_json_mb']);
    expect(long['compactions']).toBeGreaterThan(0);
  });

  it('waiting and hibernated agents: memory at once, settled and idle', () => {
    const memory = ['rss_mb', 'heap_mb', 'settled_rss_mb', 'idle_rss_mb', 'idle_after_s', 'idle_reduced'];
    const waiting = figuresOf('waiting-agents', ['--agents', '50', '--idle-limit-s', '1']);
    expectNumbers(waiting, ['cold_us_per_agent', 'us_per_agent', ...memory]);
    const hibernated = figuresOf('hibernating-agents', ['--agents', '50', '--idle-limit-s', '1']);
    expectNumbers(hibernated, ['us_per_agent_to_sleep', 'us_per_agent_woken_and_done', ...memory]);
    expect(hibernated['agents']).toBe(50);
  });

  it('remote delegation: the round trip beside a raw request, stored messages, and 1 then 2 workers, CPU- and model-bound', () => {
    const args = ['--delegations', '5', '--runs', '1', '--tasks', '100', '--warm-up-delegations', '10', '--model-ms', '5', '--slots', '10'];
    const [trip, ...scaleOut] = jsonLines(process.execPath, [join(bench, 'dist', 'remote-delegation.js'), ...args], bench);
    expect(trip?.['workload']).toBe('remote-delegation-round-trip');
    expectNumbers(trip!, ['cold_us_per_delegation', 'us_per_delegation', 'raw_request_reply_us', 'warm_over_raw', 'stored_messages_per_delegation']);
    expect(trip!['stored_messages_per_stream']).toMatch(/tasks \d/);
    expect(scaleOut.map((line) => `${String(line['workload'])} ${String(line['workers'])}`)).toEqual([
      'remote-throughput 1',
      'remote-throughput 2',
      'remote-throughput-model-bound 1',
      'remote-throughput-model-bound 2',
    ]);
    for (const line of scaleOut) expectNumbers(line, ['cold_tasks_per_s', 'tasks_per_s']);
    expectNumbers(scaleOut[1]!, ['over_one_worker']);
    expectNumbers(scaleOut[3]!, ['over_one_worker', 'slot_bound_tasks_per_s']);
  });

  it('npm run bench runs them in fresh processes and gives each figure its spread over them', () => {
    const lines = jsonLines('npm', ['run', '--silent', 'bench', '--', '--processes', '2', '--only', 'turn-overhead,short-lived'], root);
    const summary = lines.at(-1)!;
    expect(Object.keys(summary)).toEqual(['turn-overhead', 'short-lived']);
    const all = lines.slice(0, -1);
    expect(all.map((line) => [line['workload'], line['processes']])).toEqual([
      ['turn-overhead', 2],
      ['short-lived', 2],
    ]);
    // A figure that differs between the processes comes with its min–max; cold figures always do in practice.
    const spreads = all.flatMap((line) => Object.entries(line).filter(([name]) => name.endsWith('_runs')));
    expect(spreads.length).toBeGreaterThan(0);
    for (const [, spread] of spreads) expect(spread).toMatch(/^-?\d+–-?\d+$/);
  });
});
