/**
 * Many agents waiting for a user with hibernation on: `--agents` runs (default 10,000) started in
 * batches of 1,000, each suspended on an ask_user question, and each hibernated (checkpointed to
 * the run store and dropped from memory) as soon as it waits. Prints the heap and RSS once they
 * all sleep: at once, settled (the process quiet for two seconds, see settledMemoryMb) and idle
 * (once V8's memory reducer has run, see idleMemoryMb). Then answers every run (each actor is woken
 * from its checkpoint) and checks that all finish. Compare with waiting-agents, where they stay in
 * memory. The store is in memory by default (what stays is then its copy of each run); `--store
 * file` keeps runs in a temporary folder instead, as a long-lived deployment would (removed at the
 * end).
 *
 *   node --expose-gc dist/hibernating-agents.js [--agents 10000] [--store memory|file] [--idle-limit-s 150]
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createFileRunStore, createMemoryRunStore, createRuntime, type Instrumentation, type RunHandle } from '@troupe/runtime';
import { askerGraph } from './asker-graph.js';
import { heapCommittedMb } from './heap-committed.js';
import { idleMemoryMb } from './idle-memory.js';
import { settledMemoryMb } from './settled-memory.js';
import { mb, numberArg, peakRssMb, report } from './measure.js';

const agents = numberArg('agents', 10_000);
const storeIndex = process.argv.indexOf('--store');
const storeKind = storeIndex >= 0 ? process.argv[storeIndex + 1] : 'memory';
if (storeKind !== 'memory' && storeKind !== 'file') throw new Error(`--store memory|file, not ${String(storeKind)}`);
const folder = storeKind === 'file' ? mkdtempSync(join(tmpdir(), 'troupe-hibernating-')) : undefined;
const store = folder === undefined ? createMemoryRunStore() : createFileRunStore(folder);
const BATCH = 1_000;

// Counts the actors in memory: a hibernated actor's trace ends, a woken one's starts again.
let live = 0;
let sleeping: (() => void) | undefined;
// One run trace for every run: the benchmark's counting must not add to what each run keeps.
const runTrace = { carrier: undefined, end: () => undefined, leave: () => undefined };
const instrumentation: Instrumentation = {
  run: () => runTrace,
  step: () => ({ carrier: undefined, end: () => undefined }),
  actor: () => {
    live += 1;
    return {
      end: () => {
        live -= 1;
        if (live === 0) sleeping?.();
      },
    };
  },
  carrierOf: () => undefined,
};

const runtime = createRuntime({ graph: askerGraph, store, instrumentation, hibernation: { afterMs: 0 } });

function untilWaiting(handle: RunHandle): Promise<void> {
  return new Promise<void>((resolve) => {
    if (handle.status === 'waiting') resolve();
    const sub = handle.events$.subscribe(() => handle.status === 'waiting' && (sub.unsubscribe(), resolve()));
  });
}

const started = performance.now();
const handles: RunHandle[] = [];
for (let done = 0; done < agents; done += BATCH) {
  const batch = Array.from({ length: Math.min(BATCH, agents - done) }, () => runtime.run('start'));
  await Promise.all(batch.map(untilWaiting));
  handles.push(...batch);
}
await new Promise<void>((resolve) => {
  sleeping = resolve;
  if (live === 0) resolve();
});
const asleepMs = performance.now() - started;
globalThis.gc?.();
const { rss, heapUsed } = process.memoryUsage();
const committed = heapCommittedMb();
const asleepPeakMb = peakRssMb();
// Said at once (the answers of 100,000 runs take a while): the figure the benchmark is for.
process.stderr.write(`hibernating-agents: ${agents} asleep after ${Math.round(asleepMs)} ms; heap ${mb(heapUsed)} MB, RSS ${mb(rss)} MB\n`);
process.stderr.write(`  heap committed ${committed.heap_total_mb} MB (old space ${committed.old_space_mb} MB), peak RSS ${asleepPeakMb} MB so far\n`);
const settled = await settledMemoryMb();
process.stderr.write(`  settled (the process quiet for 2 s): heap ${settled.settled_heap_mb} MB, RSS ${settled.settled_rss_mb} MB\n`);
const idle = await idleMemoryMb();
process.stderr.write(
  `  idle (after V8's memory reducer, ${idle.idle_after_s} s): heap ${idle.idle_heap_mb} MB of ${idle.idle_heap_total_mb}, RSS ${idle.idle_rss_mb} MB\n`,
);

const answering = performance.now();
for (let done = 0; done < agents; done += BATCH) {
  const batch = handles.slice(done, done + BATCH);
  await Promise.all(batch.map((handle) => handle.reply('yes')));
  const results = await Promise.all(batch.map((handle) => handle.result));
  if (results.some((result) => result.status !== 'done')) throw new Error('not every woken agent finished');
}
const answeredMs = performance.now() - answering;
await runtime.close();
if (folder !== undefined) rmSync(folder, { recursive: true, force: true });
report({
  workload: 'hibernating-agents',
  agents,
  store: storeKind,
  asleep_wall_ms: Math.round(asleepMs),
  us_per_agent_to_sleep: Math.round((asleepMs * 1000) / agents),
  us_per_agent_woken_and_done: Math.round((answeredMs * 1000) / agents),
  rss_mb: mb(rss),
  heap_mb: mb(heapUsed),
  peak_rss_mb: peakRssMb(),
  ...committed,
  ...settled,
  ...idle,
  asleep_peak_rss_mb: asleepPeakMb,
});
