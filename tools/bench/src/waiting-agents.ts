/**
 * Many agents waiting at once: 10,000 runs in one process, each suspended on an ask_user-style
 * question. Prints the time to get them all waiting and the process RSS while they wait.
 *
 *   node --expose-gc dist/waiting-agents.js [--agents 10000]
 */
import { createRuntime, type GraphConfig } from '@troupe/runtime';
import { numberArg, peakRssMb, report } from './measure.js';

const agents = numberArg('agents', 10_000);

const graph: GraphConfig = {
  version: 1,
  file: 'bench.yaml',
  entry: 'asker',
  models: {
    asker: {
      name: 'asker',
      spec: { provider: 'scripted', model: 'asker' },
      script: [{ toolCalls: [{ name: 'ask_user', arguments: { question: 'Go on?' } }] }, { text: 'ok' }],
    },
  },
  agents: { asker: { name: 'asker', model: 'asker', tools: ['ask_user'] } },
};

// `ask_user` is the built-in control tool of the runtime's default registry.
const runtime = createRuntime({ graph });
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
const elapsed = performance.now() - started;
globalThis.gc?.();
const rss = Math.round((process.memoryUsage().rss / 1024 / 1024) * 10) / 10;
const heap = Math.round((process.memoryUsage().heapUsed / 1024 / 1024) * 10) / 10;
report({
  workload: 'waiting-agents',
  agents,
  wall_ms: Math.round(elapsed),
  us_per_agent: Math.round((elapsed * 1000) / agents),
  rss_mb: rss,
  heap_mb: heap,
  peak_rss_mb: peakRssMb(),
});
// Answer them all so the process ends cleanly, and check they finish.
await Promise.all(handles.map((handle) => handle.reply('yes')));
const results = await Promise.all(handles.map((handle) => handle.result));
if (results.some((r) => r.status !== 'done')) throw new Error('not every waiting agent finished');
await runtime.close();
