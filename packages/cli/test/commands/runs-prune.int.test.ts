/**
 * Proves `troupe runs prune --nats` on a real nats-server: the runs of the namespace that ended
 * longer ago than the duration are deleted from the NATS store (record, events, checkpoints),
 * a recent run and an old run still running stay, and `troupe runs --status` filters there too.
 */
import { createRunId, parseAgentPath } from '@troupe/core';
import { connectNats, createNatsRunStore, openNatsResources, type NatsConnection, type NatsRunStore } from '@troupe/nats';
import { startNatsServer, type NatsServerProcess } from '@troupe/nats/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../../src/cli.js';
import { captureIo, fixturePath } from '../run-cli.js';

const NAMESPACE = `prune${process.pid}`;
const DAY = 86_400_000;

let server: NatsServerProcess;
let nc: NatsConnection;
let store: NatsRunStore;
let nats: string[] = [];

beforeAll(async () => {
  server = await startNatsServer();
  nats = ['--nats', server.url, '--namespace', NAMESPACE];
  nc = await connectNats({ servers: server.url });
  store = createNatsRunStore(await openNatsResources(nc, { namespace: NAMESPACE }));
}, 30_000);

afterAll(async () => {
  await nc?.close();
  await server?.stop();
});

describe('troupe runs prune --nats', { timeout: 60_000 }, () => {
  it('deletes the old ended runs of the namespace and keeps the others', async () => {
    const ran = captureIo();
    expect(await runCli(['run', fixturePath('echo.yaml'), 'Say ping', ...nats], ran)).toBe(0);
    const recent = /\b(run_\w+)/.exec(ran.stderrText())?.[1];
    const [old, stuck] = [createRunId(Date.now() - 20 * DAY), createRunId(Date.now() - 21 * DAY)];
    await store.createRun({ id: old, entry: 'assistant', input: 'x', status: 'done', startedAt: Date.now() - 20 * DAY, endedAt: Date.now() - 20 * DAY });
    store.appendEvent({ type: 'turn_start', turn: 1, runId: old, agentPath: parseAgentPath('assistant'), seq: 1, ts: 1 });
    await store.flush(old);
    await store.createRun({ id: stuck, entry: 'assistant', input: 'x', status: 'running', startedAt: Date.now() - 21 * DAY });

    const running = captureIo();
    expect(await runCli(['runs', '--status', 'running', '--json', ...nats], running)).toBe(0);
    expect(running.stdoutText()).toContain(stuck);
    expect(running.stdoutText()).not.toContain(old);

    const pruned = captureIo();
    expect(await runCli(['runs', 'prune', '--older-than', '7d', ...nats], pruned)).toBe(0);
    expect(pruned.stdoutText()).toMatch(new RegExp(`^deleted ${old} · done · assistant · ended `));
    expect(pruned.stdoutText()).toContain('deleted 1 run that ended more than 7d ago from namespace');
    expect((await store.listRuns()).map((run) => run.id).sort()).toEqual([recent, stuck].sort());
  });
});
