/**
 * Human-in-the-loop deep in the tree: a child that asks a question or needs an approval makes
 * the run `waiting` with the child's path; `reply`/`approve` addressed to that path resumes the
 * child, then the parent. The waiting run survives its process: with the file run store, another
 * runtime (a fresh process in all but pid) resumes it from the snapshots and the same answer
 * reaches exactly that child; its status and events are stored once the first runtime has closed.
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { addUsage, emptyUsage } from '@troupe/core';
import { describe, expect, it } from 'vitest';
import { createFileRunStore, createRuntime } from '../../src/index.js';
import { finished, testGraph, untilWaiting } from '../../src/testing.js';
import { plannerGraph, plannerTools } from './planner-graph.js';

const tools = plannerTools;
const graph = plannerGraph;

describe('nested waiting', () => {
  it('surfaces a waiting child by path and resumes it, then the parent', async () => {
    const runtime = createRuntime({ graph, tools });
    const run = runtime.run('plan');
    await untilWaiting(run);
    expect(run.waiting).toEqual([{ path: 'lead/planner#1', input: { kind: 'question', callId: 'call_1_1', toolName: 'ask', question: 'Where to?' } }]);
    const waitingForApproval = new Promise<void>((resolve) => run.events$.subscribe((e) => e.type === 'permission_request' && resolve()));
    await run.reply('Lisbon', 'lead/planner#1');
    await waitingForApproval;
    expect(run.waiting).toEqual([{ path: 'lead/planner#1', input: { kind: 'permission', callId: 'call_2_1', toolName: 'write', args: {} } }]);
    await expect(run.approve('call_9_9', 'allow_once')).rejects.toMatchObject({ code: 'run_not_waiting' });
    await run.approve('call_2_1', 'allow_once');
    const { result, status } = await finished(run);
    expect(status).toBe('done');
    expect(result.text).toBe('Plan: going to written');
  });

  it('writes the waiting status and every event before close resolves (regression: another process read "running")', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'troupe-runs-'));
    const first = createRuntime({ graph, tools, store: createFileRunStore(dir) });
    const run = first.run('plan');
    await untilWaiting(run);
    await first.close();
    const elsewhere = createFileRunStore(dir);
    expect(await elsewhere.getRun(run.id)).toMatchObject({ status: 'waiting' });
    expect((await elsewhere.readEvents(run.id)).some((event) => event.type === 'question' && event.agentPath === 'lead/planner#1')).toBe(true);
  });

  it('resumes a waiting run in a new runtime from the file store', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'troupe-runs-'));
    const first = createRuntime({ graph, tools, store: createFileRunStore(dir) });
    const run = first.run('plan');
    await untilWaiting(run);
    await first.store.flush(run.id);
    // The first process goes away: its actors are gone, only the files remain.
    await first.close();

    const store = createFileRunStore(dir);
    expect(await store.getRun(run.id)).toMatchObject({ status: 'waiting', entry: 'lead' });
    const second = createRuntime({ graph, tools, store });
    const resumed = await second.resume(run.id);
    expect(resumed.waiting).toEqual([{ path: 'lead/planner#1', input: { kind: 'question', callId: 'call_1_1', toolName: 'ask', question: 'Where to?' } }]);
    const approval = new Promise<void>((resolve) => resumed.events$.subscribe((e) => e.type === 'permission_request' && resolve()));
    await resumed.reply('Porto');
    await approval;
    await resumed.approve('call_2_1', 'allow_always');
    const { result, status, usage } = await finished(resumed);
    expect(status).toBe('done');
    expect(result.text).toBe('Plan: going to written');
    // One planner only: the restored parent re-attached to its child instead of starting another.
    const children = await store.children(run.id);
    expect(children.map((c) => [c.path, c.outcome?.stopReason])).toEqual([['lead/planner#1', 'stop']]);
    expect(await store.getRun(run.id)).toMatchObject({ status: 'done', stopReason: 'stop' });
    const events = await store.readEvents(run.id);
    expect(events.filter((e) => e.type === 'agent_end').map((e) => e.agentPath)).toEqual(['lead/planner#1', 'lead']);
    // The run's usage is what every model call of it cost, before the resume as well as after.
    const spent = events.flatMap((e) => (e.type === 'usage' ? [e.usage] : [])).reduce(addUsage, emptyUsage());
    expect(spent.totalTokens).toBeGreaterThan(0);
    expect(usage).toEqual(spent);
    expect((await store.getRun(run.id))?.usage).toEqual(spent);
    await second.close();
  });

  it('refuses to resume a finished run', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'troupe-runs-'));
    const runtime = createRuntime({ graph: testGraph({ solo: { script: [{ text: 'hi' }] } }), store: createFileRunStore(dir) });
    const run = runtime.run('go');
    await run.result;
    await expect(runtime.resume(run.id)).rejects.toMatchObject({ code: 'run_finished' });
  });
});
