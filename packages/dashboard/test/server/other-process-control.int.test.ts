/**
 * Acting on a run hosted by another process: a real `troupe run` child process runs a lead whose
 * delegate sleeps; from the dashboard's API (through the run's control socket) the lead is
 * followed up and the sleeping delegate alone is aborted, an unknown actor is refused, and the
 * run goes on to its end in that process, its follow-up answered.
 */
import { existsSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createFileRunStore, createLogger, runDirOf } from '@troupe/runtime';
import type { RunId } from '@troupe/core';
import { createFileRunSource, startDashboard, type Dashboard } from '../../src/index.js';
import { api, readStream } from '../support/dashboard-client.js';
import { startTroupe, type TroupeProcess } from '../support/troupe-process.js';

const FOLLOW_UP_TEAM_YAML = fileURLToPath(new URL('../fixtures/follow-up-team.yaml', import.meta.url));
const logger = createLogger({ level: 'silent' });
let runsDir: string;
let dashboard: Dashboard | undefined;
let other: TroupeProcess | undefined;

beforeEach(async () => {
  runsDir = await mkdtemp(join(tmpdir(), 'troupe-dashboard-'));
});
afterEach(async () => {
  await other?.stop();
  other = undefined;
  await dashboard?.close();
  dashboard = undefined;
  await rm(runsDir, { recursive: true, force: true });
});

describe('acting on a run of another process', () => {
  it('follows up its lead and aborts its delegate alone through the control socket; the run ends in that process', async () => {
    const running = startTroupe(['run', FOLLOW_UP_TEAM_YAML, '--input', 'Take your time.', '--runs-dir', runsDir]);
    other = running;
    dashboard = await startDashboard({ source: createFileRunSource({ runsDir, logger, pollMs: 20 }), port: 0, logger });
    const store = createFileRunStore(runsDir);
    const id = await vi.waitFor(
      async () => {
        const [run] = await store.listRuns();
        if (run === undefined) throw new Error(`no run yet:\n${running.written()}`);
        return run.id as RunId;
      },
      { timeout: 30_000, interval: 50 },
    );
    // The run's process serves its control socket right after it starts the run.
    await vi.waitFor(() => expect(existsSync(join(runDirOf(runsDir, id), 'control.sock'))).toBe(true), { timeout: 30_000, interval: 50 });
    await readStream(dashboard, id, (item) => item.event.type === 'agent_start' && item.event.agentPath === 'lead/sleeper#1');

    const act = (body: unknown) => api<{ error?: { code: string; message: string } }>(dashboard!, 'POST', `/api/runs/${id}/actions`, { body });
    const nobody = await act({ type: 'abort', path: 'lead/nobody#1' });
    expect(nobody.status).toBe(409);
    expect(nobody.body.error).toMatchObject({ code: 'unknown_actor', message: expect.stringContaining('lead/nobody#1') });
    expect((await act({ type: 'followUp', message: 'One more thing.', path: 'lead' })).status).toBe(200);
    expect((await act({ type: 'abort', path: 'lead/sleeper#1' })).status).toBe(200);

    expect(await running.exited).toBe(0);
    expect(running.written()).toContain('Followed up.');
    expect(await store.getRun(id)).toMatchObject({ status: 'done' });
    const events = await readStream(dashboard, id, (item) => item.event.type === 'agent_end' && item.event.agentPath === 'lead');
    const ends = events.filter((item) => item.event.type === 'agent_end').map((item) => item.event.agentPath);
    expect(ends).toEqual(['lead/sleeper#1', 'lead']);
  });
});
