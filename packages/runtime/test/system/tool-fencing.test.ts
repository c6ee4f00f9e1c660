/**
 * The runtime fences calls that are not safe to run twice: such a call starts only once the
 * actor's checkpoint holding it (`tool_executing`, the call in its batch) is in the store, so a
 * run resumed after its process stopped knows the call may have run, and gives it an
 * "interrupted" result instead of running it again. A read-only call of the same batch runs
 * again; calls safe to repeat do not wait for the store. One that finished while the rest of its
 * batch ran keeps its real result through the resume.
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { INTERRUPTED_BY_RESTORE, textOf, type RunId, type ToolResultMessage } from '@troupe/core';
import { createToolRegistry, type ToolFactory } from '@troupe/tools';
import { describe, expect, it, vi } from 'vitest';
import { createFileRunStore, createRuntime, type RunStore } from '../../src/index.js';
import { testGraph } from '../../src/testing.js';

/** What each call of a tool saw: its call id, and the lead's stored state and batch when it started. */
interface Seen {
  callId: string;
  stored: [unknown, string[] | undefined];
}

/** A tool `name` that records what it saw in the store when it started, then finishes, or (`hang`) never does. */
function probeTool(name: string, store: RunStore, seen: Seen[], flags: { readOnly?: boolean; hang?: () => void }): ToolFactory {
  return {
    name,
    description: `Probe ${name}.`,
    create: () => ({
      name,
      description: `Probe ${name}.`,
      parameters: { type: 'object', properties: {} },
      readOnly: flags.readOnly ?? false,
      execute: async (_args, ctx) => {
        const lead = (await store.loadSnapshots(ctx.runId as RunId)).find((s) => s.agentPath === 'lead');
        seen.push({ callId: ctx.toolCallId, stored: [lead?.state, lead?.context.run?.batch?.calls.map((c) => c.id)] });
        if (flags.hang !== undefined) {
          flags.hang();
          return new Promise<never>(() => undefined);
        }
        return { content: `${name} ran` };
      },
    }),
  };
}

const graph = testGraph({
  lead: {
    tools: ['effect', 'look'],
    permissions: { mode: 'allow' },
    script: [{ toolCalls: [{ name: 'effect' }, { name: 'look' }] }, { text: 'finished: {{lastToolResult}}' }],
  },
});

describe('a call not safe to run twice', () => {
  it('starts once the checkpoint holding it is stored, and is not run again by a resume', async () => {
    const store = createFileRunStore(mkdtempSync(join(tmpdir(), 'troupe-fencing-')));
    const seen: Seen[] = [];
    let hanging!: () => void;
    const effectHangs = new Promise<void>((resolve) => (hanging = resolve));
    const tools = createToolRegistry({ factories: [probeTool('effect', store, seen, { hang: hanging }), probeTool('look', store, seen, { readOnly: true })] });
    const first = createRuntime({ graph, tools, store });
    const run = first.run('go');
    await effectHangs;
    // The process stops while `effect` runs (it never finishes here).
    await first.close();
    expect(seen.find((s) => s.callId === 'call_1_1')?.stored).toEqual(['tool_executing', ['call_1_1', 'call_1_2']]);

    const again: Seen[] = [];
    const tools2 = createToolRegistry({ factories: [probeTool('effect', store, again, {}), probeTool('look', store, again, { readOnly: true })] });
    const second = createRuntime({ graph, tools: tools2, store });
    const resumed = await second.resume(run.id);
    const result = await resumed.result;
    await second.close();
    expect(result.status).toBe('done');
    expect(again.map((s) => s.callId)).toEqual(['call_1_2']);
    const results = (result.agent?.messages ?? []).filter((m): m is ToolResultMessage => m.role === 'toolResult');
    expect(results.map((m) => [m.toolCallId, textOf(m), m.isError])).toEqual([
      ['call_1_1', INTERRUPTED_BY_RESTORE, true],
      ['call_1_2', 'look ran', false],
    ]);
  });
});

describe('a call not safe to run twice that finished while its batch went on', () => {
  for (const toolExecution of [{ mode: 'sequential' }, { mode: 'parallel' }] as const) {
    it(`keeps its result through a resume, and is not run again (${toolExecution.mode})`, async () => {
      const store = createFileRunStore(mkdtempSync(join(tmpdir(), 'troupe-fencing-')));
      const batchGraph = testGraph({
        lead: {
          tools: ['effect', 'slow'],
          permissions: { mode: 'allow' },
          toolExecution,
          script: [{ toolCalls: [{ name: 'effect' }, { name: 'slow' }] }, { text: 'finished' }],
        },
      });
      const seen: Seen[] = [];
      let hanging!: () => void;
      const slowHangs = new Promise<void>((resolve) => (hanging = resolve));
      const tools = createToolRegistry({ factories: [probeTool('effect', store, seen, {}), probeTool('slow', store, seen, { hang: hanging })] });
      const first = createRuntime({ graph: batchGraph, tools, store });
      const run = first.run('go');
      await slowHangs;
      // While `slow` runs, the store comes to hold `effect`'s result (it is written as `effect` ends, without holding `slow` up).
      await vi.waitFor(async () => {
        const lead = (await store.loadSnapshots(run.id)).find((s) => s.agentPath === 'lead');
        expect(Object.keys(lead?.context.run?.batch?.results ?? {})).toEqual(['call_1_1']);
      });
      // The process stops while `slow` runs (it never finishes here).
      await first.close();

      const again: Seen[] = [];
      const tools2 = createToolRegistry({ factories: [probeTool('effect', store, again, {}), probeTool('slow', store, again, {})] });
      const second = createRuntime({ graph: batchGraph, tools: tools2, store });
      const result = await (await second.resume(run.id)).result;
      await second.close();
      expect(result.status).toBe('done');
      expect(again).toEqual([]);
      const results = (result.agent?.messages ?? []).filter((m): m is ToolResultMessage => m.role === 'toolResult');
      expect(results.map((m) => [m.toolCallId, textOf(m), m.isError])).toEqual([
        ['call_1_1', 'effect ran', false],
        ['call_1_2', INTERRUPTED_BY_RESTORE, true],
      ]);
    });
  }
});
