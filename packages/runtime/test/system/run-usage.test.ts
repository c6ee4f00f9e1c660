/**
 * A run's record carries its usage while the run goes on, not only once it has ended
 * (regression: `troupe runs` listed 0 tokens for a waiting, running or killed run while `troupe
 * show` summed its events): a run left waiting has the usage of its events in its record, and
 * once another runtime resumes and finishes it, the record still equals the sum of every usage
 * event of the run. Its turns likewise.
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { addUsage, emptyUsage, type AgentEvent, type Usage } from '@troupe/core';
import { createToolRegistry } from '@troupe/tools';
import { describe, expect, it, vi } from 'vitest';
import { createFileRunStore, createRuntime } from '../../src/index.js';
import { askTool, testGraph, untilWaiting } from '../../src/testing.js';

const graph = testGraph({
  asker: {
    tools: ['ask'],
    script: [
      { toolCalls: [{ name: 'ask', arguments: { question: 'Where?' } }], usage: { input: 30, output: 7 } },
      { text: 'To {{lastToolResult}}', usage: { input: 50, output: 4 } },
    ],
  },
});
const tools = createToolRegistry({ factories: [askTool] });

function summed(events: readonly AgentEvent[]): Usage {
  return events.reduce((total, event) => (event.type === 'usage' ? addUsage(total, event.usage) : total), emptyUsage());
}

describe("a run's usage in its record", () => {
  it('follows the run while it waits, and after it was resumed and ended', async () => {
    const store = createFileRunStore(mkdtempSync(join(tmpdir(), 'troupe-usage-')));
    const run = createRuntime({ graph, tools, store }).run('go');
    await untilWaiting(run);
    await vi.waitFor(async () => expect((await store.getRun(run.id))?.usage?.totalTokens).toBe(37), { timeout: 20_000, interval: 50 });
    expect((await store.getRun(run.id))?.usage).toEqual(summed(await store.readEvents(run.id)));

    const resumed = await createRuntime({ graph, tools, store }).resume(run.id);
    await resumed.reply('Lisbon');
    expect(await resumed.result).toMatchObject({ status: 'done', usage: { totalTokens: 91 } });
    expect((await store.getRun(run.id))?.usage).toEqual(summed(await store.readEvents(run.id)));
  });

  it("keeps its turns (each actor's latest, summed) while it waits, and after it was resumed and ended", async () => {
    const store = createFileRunStore(mkdtempSync(join(tmpdir(), 'troupe-usage-')));
    const run = createRuntime({ graph, tools, store }).run('go');
    await untilWaiting(run);
    expect(run.turns).toBe(1);
    await vi.waitFor(async () => expect((await store.getRun(run.id))?.turns).toBe(1), { timeout: 20_000, interval: 50 });
    // The first runtime's last progress (the turn's usage, held for the spacing) must have landed
    // before another runtime resumes the run: written after the resumed run's final record, on a
    // loaded machine, it put the turns back to 1.
    await vi.waitFor(async () => expect((await store.getRun(run.id))?.usage?.totalTokens).toBe(37), { timeout: 20_000, interval: 50 });

    const resumed = await createRuntime({ graph, tools, store }).resume(run.id);
    await resumed.reply('Lisbon');
    await resumed.result;
    expect(resumed.turns).toBe(2);
    expect((await store.getRun(run.id))?.turns).toBe(2);
  });
});
