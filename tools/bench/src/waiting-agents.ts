/**
 * Many agents waiting at once: 10,000 runs in one process, each suspended on an ask_user-style
 * question. Prints the time to get them all waiting, cold (the first 10,000 of a fresh process) and
 * warm (10,000 more once those finished), and the process RSS while the first 10,000 wait: at once,
 * settled (`settled_…`: two seconds later, once the process is quiet; see settledMemoryMb) and idle
 * (`idle_…`: once V8's memory reducer has run, up to two minutes later; see idleMemoryMb).
 *
 *   node --expose-gc dist/waiting-agents.js [--agents 10000] [--idle-limit-s 150]
 */
import { createRuntime, type RunHandle } from '@troupe/runtime';
import { askerGraph } from './asker-graph.js';
import { heapCommittedMb } from './heap-committed.js';
import { idleMemoryMb } from './idle-memory.js';
import { settledMemoryMb } from './settled-memory.js';
import { mb, numberArg, peakRssMb, report } from './measure.js';

const agents = numberArg('agents', 10_000);

// `ask_user` is the built-in control tool of the runtime's default registry.
const runtime = createRuntime({ graph: askerGraph });

/** Starts `agents` runs and resolves once all of them wait; ms of wall time. */
async function wave(): Promise<{ elapsed: number; handles: RunHandle[] }> {
  const started = performance.now();
  const handles = Array.from({ length: agents }, () => runtime.run('start'));
  await Promise.all(
    handles.map(
      (handle) =>
        new Promise<void>((resolve) => {
          if (handle.status === 'waiting') resolve();
          const sub = handle.events$.subscribe(() => handle.status === 'waiting' && (sub.unsubscribe(), resolve()));
        }),
    ),
  );
  return { elapsed: performance.now() - started, handles };
}

/** Answers every waiting run and checks that each finishes. */
async function answer(handles: RunHandle[]): Promise<void> {
  await Promise.all(handles.map((handle) => handle.reply('yes')));
  const results = await Promise.all(handles.map((handle) => handle.result));
  if (results.some((r) => r.status !== 'done')) throw new Error('not every waiting agent finished');
}

// Cold: the first wave of a fresh process; its RSS is the figure. Warm: a second wave once the first finished.
const cold = await wave();
globalThis.gc?.();
const rss = mb(process.memoryUsage().rss);
const heap = mb(process.memoryUsage().heapUsed);
const committed = heapCommittedMb();
const settled = await settledMemoryMb();
const idle = await idleMemoryMb();
await answer(cold.handles);
globalThis.gc?.();
const warm = await wave();
await answer(warm.handles);
await runtime.close();
report({
  workload: 'waiting-agents',
  agents,
  cold_wall_ms: Math.round(cold.elapsed),
  cold_us_per_agent: Math.round((cold.elapsed * 1000) / agents),
  wall_ms: Math.round(warm.elapsed),
  us_per_agent: Math.round((warm.elapsed * 1000) / agents),
  rss_mb: rss,
  heap_mb: heap,
  peak_rss_mb: peakRssMb(),
  ...committed,
  ...settled,
  ...idle,
});
