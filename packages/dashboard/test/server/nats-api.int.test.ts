/**
 * The dashboard's API over a NATS namespace (a real nats-server, a worker, and a coordinator
 * runtime standing for another process): a run started elsewhere is followed from its event stream
 * with seqs from 0, and resumes from Last-Event-ID without loss or duplicates; its remote children
 * show the worker they ran on; a run started from the API places its specialists on the worker;
 * an approval reaches an actor hosted by another process, a stale one is refused; unknown runs get 404.
 */
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createLogger, loadGraphFile, type Runtime } from '@troupe/runtime';
import { connectNats, createNatsRuntime, openNatsResources, startWorker, type NatsResources, type Worker } from '@troupe/nats';
import { startNatsServer, type NatsServerProcess } from '@troupe/nats/testing';
import { createNatsRunSource, startDashboard, type Dashboard } from '../../src/index.js';
import { openGraphHost, type GraphHost } from '../../src/sources/graph-host.js';
import { api, readStream } from '../support/dashboard-client.js';
import { MCP_APPROVAL_YAML, TEAM_YAML } from '../support/examples.js';

const SLOW_REMOTE_YAML = fileURLToPath(new URL('../fixtures/slow-remote.yaml', import.meta.url));

const logger = createLogger({ level: 'silent' });
const namespace = `dash${process.pid}`;
let server: NatsServerProcess;
const opened: NatsResources[] = [];
let worker: Worker;
let coordinator: Runtime;
let dashboard: Dashboard;

async function resources(): Promise<NatsResources> {
  const r = await openNatsResources(await connectNats({ servers: server.url }), { namespace });
  opened.push(r);
  return r;
}

beforeAll(async () => {
  server = await startNatsServer();
  const graph = await loadGraphFile(TEAM_YAML);
  worker = await startWorker({ resources: await resources(), graph, ackWaitMs: 5000 });
  coordinator = createNatsRuntime({ graph, resources: await resources(), hostId: 'coordinator' }).runtime;
  dashboard = await startDashboard({
    source: createNatsRunSource({ resources: await resources(), namespace, display: server.url, graphFile: TEAM_YAML, logger }),
    port: 0,
    logger,
  });
});
afterAll(async () => {
  await dashboard?.close();
  await coordinator?.close();
  await worker?.stop(1000);
  for (const r of opened) await r.nc.close().catch(() => undefined);
  await server?.stop();
});

describe('dashboard API over NATS', () => {
  it('follows a run of another process from its event stream, resumes from Last-Event-ID, and lists the worker', async () => {
    const handle = coordinator.run('Should we adopt TypeScript 7?');
    await handle.result;
    const all = await readStream(dashboard, handle.id, (item) => item.event.type === 'agent_end' && item.event.agentPath === 'lead');
    expect(all.map((item) => item.seq)).toEqual(all.map((_, index) => index));
    expect(new Set(all.map((item) => item.event.agentPath))).toEqual(new Set(['lead', 'lead/researcher#1', 'lead/critic#1']));
    const resumed = await readStream(dashboard, handle.id, (item) => item.seq === all.length - 1, { lastEventId: 3 });
    expect(resumed.map((item) => item.seq)).toEqual(all.slice(4).map((item) => item.seq));

    const workers = await api<{ workers: Array<{ id: string; agents: string[] }> }>(dashboard, 'GET', '/api/workers');
    expect(workers.body.workers.map((w) => w.id)).toContain(worker.id);
  });

  it('shows a remote child running on its worker, and aborts the distributed run', async () => {
    const graph = await loadGraphFile(SLOW_REMOTE_YAML);
    const sleepy = await startWorker({ resources: await resources(), graph, ackWaitMs: 5000 });
    const runtime = createNatsRuntime({ graph, resources: opened[1] as NatsResources, hostId: 'slow-coordinator' }).runtime;
    try {
      const handle = runtime.run('Take your time.');
      await vi.waitFor(
        async () => {
          const detail = await api<{ placements: Record<string, string> }>(dashboard, 'GET', `/api/runs/${handle.id}`);
          expect(detail.body.placements['lead/sleeper#1']).toBe(`running on ${sleepy.id}`);
        },
        { timeout: 45_000, interval: 100 },
      );
      const aborted = await api(dashboard, 'POST', `/api/runs/${handle.id}/actions`, { body: { type: 'abort' } });
      expect(aborted.status).toBe(200);
      expect((await handle.result).status).toBe('aborted');
      const detail = await api<{ placements: Record<string, string> }>(dashboard, 'GET', `/api/runs/${handle.id}`);
      expect(detail.body.placements['lead/sleeper#1']).toMatch(new RegExp(`${sleepy.id}`));
    } finally {
      await runtime.close();
      await sleepy.stop(1000);
    }
  });

  it('starts a run from the API: the specialists run on the worker, the run ends done', async () => {
    const started = await api<{ runId: string }>(dashboard, 'POST', '/api/runs', { body: { input: 'Go' } });
    expect(started.status).toBe(201);
    const events = await readStream(dashboard, started.body.runId, (item) => item.event.type === 'agent_end' && item.event.agentPath === 'lead');
    expect(events.filter((item) => item.event.type === 'agent_start').map((item) => item.event.agentPath)).toEqual(
      expect.arrayContaining(['lead', 'lead/researcher#1', 'lead/critic#1']),
    );
    await vi.waitFor(
      async () => expect((await api<{ run: { status: string } }>(dashboard, 'GET', `/api/runs/${started.body.runId}`)).body.run.status).toBe('done'),
      { timeout: 30_000, interval: 100 },
    );
  });

  it('approves a call waiting in another process; a stale approval and an unknown run are refused', async () => {
    const unknown = await api<{ error: { code: string } }>(dashboard, 'GET', '/api/runs/run_nope');
    expect([unknown.status, unknown.body.error.code]).toEqual([404, 'unknown_run']);

    const other: GraphHost = await openGraphHost(MCP_APPROVAL_YAML, {
      env: process.env,
      logger,
      factory: (graph, build) => createNatsRuntime({ ...build, graph, resources: opened[1] as NatsResources, hostId: 'asker' }).runtime,
    });
    try {
      const handle = other.runtime.run('Say hello');
      const waiting = await vi.waitFor(
        async () => {
          const detail = await api<{ waiting: Array<{ path: string; input: { callId: string } }> }>(dashboard, 'GET', `/api/runs/${handle.id}`);
          expect(detail.body.waiting).toHaveLength(1);
          return detail.body.waiting;
        },
        { timeout: 45_000, interval: 100 },
      );
      const callId = waiting[0]?.input.callId ?? '';
      const stale = await api<{ error: { code: string } }>(dashboard, 'POST', `/api/runs/${handle.id}/actions`, {
        body: { type: 'approve', callId: 'call_old', decision: 'allow_once' },
      });
      expect([stale.status, stale.body.error.code]).toEqual([409, 'stale_request']);
      const ok = await api(dashboard, 'POST', `/api/runs/${handle.id}/actions`, { body: { type: 'approve', callId, decision: 'allow_once' } });
      expect(ok.status).toBe(200);
      const result = await handle.result;
      expect(result.status).toBe('done');
      expect(result.text).toContain('hello from troupe');
    } finally {
      await other.close();
    }
  });
});
