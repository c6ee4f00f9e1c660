/**
 * Runs the dashboard did not start: a run left waiting by another runtime (another process, as
 * `troupe run` leaves one) is listed as waiting, shows what it waits for from its checkpoints, and
 * an approval from the API resumes it here to its end; a run written by another process is
 * followed from its events file; secrets in records and events reach the page redacted.
 */
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createFileRunStore, createLogger, runDirOf } from '@troupe/runtime';
import type { RunId } from '@troupe/core';
import { createFileRunSource, startDashboard, type Dashboard } from '../../src/index.js';
import { openGraphHost, storeRuntime } from '../../src/sources/graph-host.js';
import { api, readStream } from '../support/dashboard-client.js';
import { MCP_APPROVAL_YAML } from '../support/examples.js';

const logger = createLogger({ level: 'silent' });
let runsDir: string;
let dashboard: Dashboard | undefined;

beforeEach(async () => {
  runsDir = await mkdtemp(join(tmpdir(), 'troupe-dashboard-'));
});
afterEach(async () => {
  await dashboard?.close();
  dashboard = undefined;
  await rm(runsDir, { recursive: true, force: true });
});

describe('runs of other processes', () => {
  it('approves a run another runtime left waiting: resumed here from its checkpoints, it ends', async () => {
    const store = createFileRunStore(runsDir);
    const other = await openGraphHost(MCP_APPROVAL_YAML, { env: process.env, logger, factory: storeRuntime(store) });
    const handle = other.runtime.run('Say hello');
    const asked = await new Promise<string>((resolve) => {
      const subscription = handle.events$.subscribe((event) => {
        if (event.type === 'permission_request') {
          subscription.unsubscribe();
          resolve(event.toolCallId);
        }
      });
    });
    await vi.waitFor(async () => expect((await store.getRun(handle.id))?.status).toBe('waiting'), { timeout: 30_000, interval: 50 });
    await other.close();

    dashboard = await startDashboard({ source: createFileRunSource({ runsDir, logger }), port: 0, logger });
    const listed = await api<{ runs: Array<{ id: string; status: string }> }>(dashboard, 'GET', '/api/runs');
    expect(listed.body.runs.map((run) => [run.id, run.status])).toEqual([[handle.id, 'waiting']]);
    const detail = await api<{ waiting: Array<{ path: string; input: { callId: string } }> }>(dashboard, 'GET', `/api/runs/${handle.id}`);
    expect(detail.body.waiting).toEqual([expect.objectContaining({ path: 'assistant', input: expect.objectContaining({ callId: asked }) })]);

    const stale = await api<{ error: { code: string } }>(dashboard, 'POST', `/api/runs/${handle.id}/actions`, {
      body: { type: 'approve', callId: `${asked}x`, decision: 'allow_once' },
    });
    expect(stale.body.error.code).toBe('stale_request');
    expect((await store.getRun(handle.id))?.status).toBe('waiting');

    const approved = await api(dashboard, 'POST', `/api/runs/${handle.id}/actions`, { body: { type: 'approve', callId: asked, decision: 'allow_once' } });
    expect(approved.status).toBe(200);
    const events = await readStream(dashboard, handle.id, (item) => item.event.type === 'agent_end');
    // The stream is the run's whole log: the events from before the resume, then the new ones.
    expect(events[0]?.event.type).toBe('agent_start');
    expect(events.some((item) => item.event.type === 'tool_end')).toBe(true);
    await vi.waitFor(async () => expect((await store.getRun(handle.id))?.status).toBe('done'), { timeout: 30_000, interval: 50 });
  });

  it('follows a run from its events file as another process appends to it, with secrets redacted', async () => {
    const id = 'run_other' as RunId;
    const dir = runDirOf(runsDir, id);
    await mkdir(dir, { recursive: true });
    const record = {
      id,
      entry: 'lead',
      input: 'hi',
      status: 'done',
      startedAt: 1,
      endedAt: 2,
      error: { code: 'x', message: 'm', data: { apiKey: 'sk-live-123' } },
    };
    await writeFile(join(dir, 'run.json'), JSON.stringify(record));
    const base = { runId: id, agentPath: 'lead', ts: 1 };
    const lines = [
      { ...base, seq: 0, type: 'agent_start', sessionId: 's' },
      {
        ...base,
        seq: 1,
        type: 'tool_start',
        toolCallId: 'c1',
        toolName: 'http',
        args: { url: 'u', headers: { authorization: 'Bearer sk-live-456' }, token: 'sk-live-789' },
      },
    ];
    await writeFile(join(dir, 'events.jsonl'), `${lines.map((line) => JSON.stringify(line)).join('\n')}\n`);

    dashboard = await startDashboard({ source: createFileRunSource({ runsDir, logger, pollMs: 20 }), port: 0, logger });
    const events = await readStream(dashboard, id, (item) => item.seq === 1);
    expect(events.map((item) => item.event.type)).toEqual(['agent_start', 'tool_start']);
    const raw = await fetch(`${dashboard.origin}/api/runs/${id}`, { headers: { authorization: `Bearer ${dashboard.token}` } }).then((r) => r.text());
    const all = `${JSON.stringify(events)}${raw}`;
    expect(all).not.toMatch(/sk-live/);
    expect(all).toContain('[redacted]');
  });
});
