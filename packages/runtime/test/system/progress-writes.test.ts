/**
 * `ProgressWrites` writes each run's newest usage and turns to its record, and keeps a writer for
 * a run only while it has something to write (many runs wait or sleep with nothing to write):
 * once a run's writes have settled (and the spacing after them is up) it keeps none, and a later
 * value makes a new writer whose write lands after the earlier ones. Values given turn after turn
 * are written once per spacing; settling writes the newest at once.
 */
import { emptyUsage, parseRunId, type RunId } from '@troupe/core';
import { describe, expect, it } from 'vitest';
import { createMemoryRunStore } from '../../src/index.js';
import type { RunStore } from '../../src/store/run-store.js';
import { ProgressWrites } from '../../src/system/progress-writes.js';

async function storeWithRuns(...ids: RunId[]): Promise<RunStore> {
  const store = createMemoryRunStore();
  for (const id of ids) await store.createRun({ id, entry: 'lead', input: 'go', status: 'running', startedAt: 0 });
  return store;
}

/** The turns of each progress write to `store`'s records, in order (`hold` may delay a write). */
function turnsWritten(store: RunStore, hold?: (turns: number) => Promise<void>): number[] {
  const written: number[] = [];
  const updateRun = store.updateRun.bind(store);
  store.updateRun = async (runId, patch) => {
    if (patch.turns !== undefined) {
      written.push(patch.turns);
      await hold?.(patch.turns);
    }
    return updateRun(runId, patch);
  };
  return written;
}

function usageOf(input: number): ReturnType<typeof emptyUsage> {
  return { ...emptyUsage(), input };
}

describe('ProgressWrites', () => {
  it("writes a run's newest progress to its record, and keeps no writer once it is written", async () => {
    const id = parseRunId('run_progress_a');
    const store = await storeWithRuns(id);
    const progress = new ProgressWrites(store);
    progress.write(id, { usage: usageOf(1), turns: 1 });
    progress.write(id, { usage: usageOf(2), turns: 2 });
    expect(progress.size).toBe(1);
    await progress.settle(id);
    expect(await store.getRun(id)).toMatchObject({ usage: { input: 2 }, turns: 2 });
    expect(progress.size).toBe(0);
  });

  it('lets a writer go by itself once its writes settle, and writes a later value after the earlier ones', async () => {
    const id = parseRunId('run_progress_b');
    const store = await storeWithRuns(id);
    const written = turnsWritten(store);
    const progress = new ProgressWrites(store, 20);
    progress.write(id, { usage: usageOf(1), turns: 1 });
    // Not settled through `settle`: the writer goes once its own writes are done.
    while (progress.size > 0) await new Promise<void>((resolve) => setImmediate(resolve));
    progress.write(id, { usage: usageOf(3), turns: 3 });
    await progress.settle(id);
    expect(written).toEqual([1, 3]);
    expect(await store.getRun(id)).toMatchObject({ usage: { input: 3 }, turns: 3 });
  });

  it("writes a run's progress given turn after turn once per spacing, and the newest at once when settled", async () => {
    const id = parseRunId('run_progress_e');
    const store = await storeWithRuns(id);
    const written = turnsWritten(store);
    const progress = new ProgressWrites(store, 60_000);
    progress.write(id, { usage: usageOf(1), turns: 1 });
    while (written.length === 0) await new Promise<void>((resolve) => setImmediate(resolve));
    for (let turn = 2; turn <= 5; turn++) {
      progress.write(id, { usage: usageOf(turn), turns: turn });
      await new Promise<void>((resolve) => setImmediate(resolve));
    }
    // The first turn is written at once, the next ones wait for the spacing: the writer is kept meanwhile.
    expect(written).toEqual([1]);
    expect(progress.size).toBe(1);
    await progress.settle(id);
    expect(written).toEqual([1, 5]);
    expect(await store.getRun(id)).toMatchObject({ usage: { input: 5 }, turns: 5 });
  });

  it("drops a run's progress waiting for the spacing when the run ends, after the write in flight", async () => {
    const id = parseRunId('run_progress_f');
    const store = await storeWithRuns(id);
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    const written = turnsWritten(store, (turns) => (turns === 1 ? held : Promise.resolve()));
    const progress = new ProgressWrites(store, 60_000);
    progress.write(id, { usage: usageOf(1), turns: 1 });
    while (written.length === 0) await new Promise<void>((resolve) => setImmediate(resolve));
    progress.write(id, { usage: usageOf(2), turns: 2 });
    let ended = false;
    const ending = progress.end(id).then(() => (ended = true));
    await new Promise<void>((resolve) => setImmediate(resolve));
    // The write in flight is waited for.
    expect(ended).toBe(false);
    release();
    await ending;
    expect(written).toEqual([1]);
    expect(progress.size).toBe(0);
    expect(await store.getRun(id)).toMatchObject({ turns: 1 });
  });

  it("settles every run's progress at once", async () => {
    const a = parseRunId('run_progress_c');
    const b = parseRunId('run_progress_d');
    const store = await storeWithRuns(a, b);
    const progress = new ProgressWrites(store);
    progress.write(a, { usage: usageOf(1), turns: 1 });
    progress.write(b, { usage: usageOf(2), turns: 4 });
    await progress.settleAll();
    expect(progress.size).toBe(0);
    expect(await store.getRun(a)).toMatchObject({ turns: 1 });
    expect(await store.getRun(b)).toMatchObject({ turns: 4 });
  });
});
