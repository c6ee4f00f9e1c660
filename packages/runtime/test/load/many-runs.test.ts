/**
 * Load probe (issue #20): 1,000 concurrent runs through one Runtime (in-process transport, memory
 * run store), each delegating to a child actor. Every run ends `done` with its child's answer, and
 * once they have ended and their records are deleted from the store, the heap (GC forced: this
 * package's tests run with `--expose-gc`) is back near where it started: the runtime and the
 * transport keep nothing of a finished run. The figures are printed for the table.
 */
import type { RunId } from '@troupe/core';
import { describe, expect, it } from 'vitest';
import { createRuntime, type Runtime } from '../../src/index.js';
import { delegate, testGraph } from '../../src/testing.js';

const RUNS = 1000;
/** Generous: 1,000 runs with their events take a few MB while alive; a leak of them would be far more. */
const SLACK_BYTES = 16 * 1024 * 1024;

const gc = (globalThis as { gc?: () => void }).gc;

/** Heap in use after full collections (twice: finalizers of the first may free more). */
async function settledHeap(): Promise<number> {
  for (let i = 0; i < 3; i++) {
    await new Promise<void>((resolve) => setImmediate(resolve));
    gc?.();
  }
  return process.memoryUsage().heapUsed;
}

async function runAll(runtime: Runtime, count: number): Promise<RunId[]> {
  const handles = Array.from({ length: count }, (_, i) => runtime.run(`task ${i}`));
  const ids = handles.map((h) => h.id);
  const results = await Promise.all(handles.map((h) => h.result));
  for (const result of results) {
    expect(result.status).toBe('done');
    expect(result.agent?.text).toBe('lead got: helped');
  }
  return ids;
}

describe('load: 1,000 concurrent runs with delegation', () => {
  it('ends every run done and gives the memory back', { timeout: 120_000 }, async () => {
    expect(gc, 'run with --expose-gc (vitest.config.ts execArgv)').toBeTypeOf('function');
    const graph = testGraph({
      lead: { delegates: ['helper'], script: [{ toolCalls: [delegate('helper', 'help')] }, { text: 'lead got: {{lastToolResult}}' }] },
      helper: { script: [{ text: 'helped' }] },
    });
    const runtime = createRuntime({ graph });
    // Warm up (modules, JIT, schema caches) so the baseline is the steady state, not a cold start.
    for (const id of await runAll(runtime, 20)) await runtime.store.deleteRun(id);
    const before = await settledHeap();

    const ids = await runAll(runtime, RUNS);
    const stored = await runtime.store.listRuns();
    expect(stored.filter((r) => ids.includes(r.id)).every((r) => r.status === 'done')).toBe(true);
    const withRecords = await settledHeap();
    for (const id of ids) await runtime.store.deleteRun(id);
    const after = await settledHeap();

    const mb = (n: number) => `${(n / 1024 / 1024).toFixed(1)} MB`;
    console.log(`many-runs: heapUsed before ${mb(before)}, after ${RUNS} runs with their records ${mb(withRecords)}, records deleted ${mb(after)}`);
    expect(after).toBeLessThanOrEqual(before + SLACK_BYTES);
    await runtime.close();
  });
});
