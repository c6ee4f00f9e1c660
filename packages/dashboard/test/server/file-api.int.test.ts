/**
 * The dashboard's API over a runs folder, with real runs of the example graphs: a run started from
 * the API streams every event with its `seq` and resumes from `Last-Event-ID` without loss or
 * duplicates; an approval reaches the waiting actor and the run ends; a stale approval, an unknown
 * run, a missing token and a cross-origin POST get typed 4xx errors and change nothing.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createLogger } from '@troupe/runtime';
import { createFileRunSource, startDashboard, type Dashboard } from '../../src/index.js';
import { api, readStream } from '../support/dashboard-client.js';
import { MCP_APPROVAL_YAML, TEAM_YAML } from '../support/examples.js';

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

async function open(graphFile?: string): Promise<Dashboard> {
  dashboard = await startDashboard({
    source: createFileRunSource({ runsDir, logger, ...(graphFile === undefined ? {} : { graphFile }) }),
    port: 0,
    logger,
  });
  return dashboard;
}

describe('dashboard API over a runs folder', () => {
  it('starts a run, streams its events numbered from 0, and resumes from Last-Event-ID without loss or duplicates', async () => {
    const d = await open(TEAM_YAML);
    const info = await api<{ graph: { entry: string; agents: Array<{ name: string }> } }>(d, 'GET', '/api/info');
    expect(info.body.graph.entry).toBe('lead');
    const started = await api<{ runId: string }>(d, 'POST', '/api/runs', { body: { input: 'Should we adopt TypeScript 7?' } });
    expect(started.status).toBe(201);
    const { runId } = started.body;
    const all = await readStream(d, runId, (item) => item.event.type === 'agent_end' && item.event.agentPath === 'lead');
    expect(all.map((item) => item.seq)).toEqual(all.map((_, index) => index));
    expect(all.every((item) => item.id === String(item.seq))).toBe(true);
    expect(new Set(all.map((item) => item.event.agentPath))).toEqual(new Set(['lead', 'lead/researcher#1', 'lead/critic#1']));

    // A page that dropped after event 5 gets 6, 7, … once each.
    const resumed = await readStream(d, runId, (item) => item.seq === all.length - 1, { lastEventId: 5 });
    expect(resumed.map((item) => item.seq)).toEqual(all.slice(6).map((item) => item.seq));
    expect(resumed.map((item) => item.event)).toEqual(all.slice(6).map((item) => item.event));

    await vi.waitFor(
      async () => {
        const runs = await api<{ runs: Array<{ id: string; status: string }> }>(d, 'GET', '/api/runs');
        expect(runs.body.runs.find((run) => run.id === runId)?.status).toBe('done');
      },
      { timeout: 30_000, interval: 100 },
    );
    // Its record carries its turns: the lead's two and one of each specialist.
    const listed = await api<{ runs: Array<{ id: string; turns?: number }> }>(d, 'GET', '/api/runs');
    expect(listed.body.runs.find((run) => run.id === runId)?.turns).toBe(4);
    const messages = await api<{ messages: Array<{ role: string }> }>(d, 'GET', `/api/runs/${runId}/messages?path=lead`);
    expect(messages.body.messages.map((m) => m.role)).toContain('assistant');
  });

  it('approves a pending call: the run ends; the same approval again, or a wrong call id, is stale and changes nothing', async () => {
    const d = await open(MCP_APPROVAL_YAML);
    const { runId } = (await api<{ runId: string }>(d, 'POST', '/api/runs', { body: { input: 'Say hello' } })).body;
    const waiting = await vi.waitFor(
      async () => {
        const detail = await api<{ run: { status: string }; waiting: Array<{ path: string; input: { kind: string; callId: string } }> }>(
          d,
          'GET',
          `/api/runs/${runId}`,
        );
        expect(detail.body.waiting).toHaveLength(1);
        return detail.body.waiting;
      },
      { timeout: 45_000, interval: 100 },
    );
    const callId = waiting[0]?.input.callId ?? '';

    const wrong = await api<{ error: { code: string } }>(d, 'POST', `/api/runs/${runId}/actions`, {
      body: { type: 'approve', callId: 'call_nope', decision: 'allow_once' },
    });
    expect(wrong.status).toBe(409);
    expect(wrong.body.error.code).toBe('stale_request');
    const badDecision = await api<{ error: { code: string } }>(d, 'POST', `/api/runs/${runId}/actions`, {
      body: { type: 'approve', callId, decision: 'maybe' },
    });
    expect(badDecision.status).toBe(400);
    expect((await api<{ waiting: unknown[] }>(d, 'GET', `/api/runs/${runId}`)).body.waiting).toHaveLength(1);

    const ok = await api(d, 'POST', `/api/runs/${runId}/actions`, { body: { type: 'approve', callId, decision: 'allow_once' } });
    expect(ok.status).toBe(200);
    const events = await readStream(d, runId, (item) => item.event.type === 'agent_end');
    const end = events.at(-1)?.event;
    expect(end?.type === 'agent_end' ? end.result.stopReason : undefined).toBe('stop');

    const again = await api<{ error: { code: string } }>(d, 'POST', `/api/runs/${runId}/actions`, {
      body: { type: 'approve', callId, decision: 'allow_once' },
    });
    expect(again.status).toBe(409);
    expect(['stale_request', 'run_ended']).toContain(again.body.error.code);
  });

  it('answers unknown runs, missing tokens and cross-origin POSTs with typed errors', async () => {
    const d = await open(TEAM_YAML);
    const unknown = await api<{ error: { code: string } }>(d, 'GET', '/api/runs/run_nope');
    expect(unknown.status).toBe(404);
    expect(unknown.body.error.code).toBe('unknown_run');
    const unknownAction = await api<{ error: { code: string } }>(d, 'POST', '/api/runs/run_nope/actions', { body: { type: 'abort' } });
    expect(unknownAction.body.error.code).toBe('unknown_run');
    const unknownEvents = await fetch(`${d.origin}/api/runs/run_nope/events`, { headers: { authorization: `Bearer ${d.token}` } });
    expect(unknownEvents.status).toBe(404);

    const noToken = await api<{ error: { code: string } }>(d, 'GET', '/api/runs', { token: null });
    expect(noToken.status).toBe(401);
    expect(noToken.body.error.code).toBe('unauthorized');
    const wrongToken = await api<{ error: { code: string } }>(d, 'POST', '/api/runs', { token: 'guess', body: { input: 'hi' } });
    expect(wrongToken.status).toBe(401);
    const crossSite = await api<{ error: { code: string } }>(d, 'POST', '/api/runs', { origin: 'http://evil.example', body: { input: 'hi' } });
    expect(crossSite.status).toBe(403);
    expect(crossSite.body.error.code).toBe('forbidden');
    // None of them started a run.
    expect((await api<{ runs: unknown[] }>(d, 'GET', '/api/runs')).body.runs).toEqual([]);

    // The page's first load trades ?token= for a cookie the API then accepts.
    const load = await fetch(d.url, { redirect: 'manual' });
    expect(load.status).toBe(303);
    const cookie = load.headers.get('set-cookie')?.split(';')[0] ?? '';
    expect((await fetch(`${d.origin}/api/runs`, { headers: { cookie } })).status).toBe(200);
    const pageHtml = await fetch(`${d.origin}/`);
    expect(await pageHtml.text()).toContain('<div id="app">');
  });
});
