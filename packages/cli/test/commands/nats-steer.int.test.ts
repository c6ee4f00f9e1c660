/**
 * `troupe steer --nats` on a real nats-server: the steering message reaches the actor of a
 * distributed run through its control subject, in whichever process hosts it (here the `troupe
 * run --nats` process hosting its entry, blocked in a bash call on a FIFO), and enters its
 * conversation before its next model call; a path with no actor is refused with the actors that
 * run, and a run that has ended is said so.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { textOf } from '@troupe/core';
import { connectNats, createNatsRunStore, loadSnapshot, openNatsResources, type NatsConnection, type NatsResources } from '@troupe/nats';
import { startNatsServer, type NatsServerProcess } from '@troupe/nats/testing';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { startTroupe } from '../spawn-troupe.js';
import { steerToTheEnd } from './steered-run.js';

let server: NatsServerProcess;
let nc: NatsConnection;
let resources: NatsResources;
const namespace = `steer${process.pid}`;

beforeAll(async () => {
  server = await startNatsServer();
  nc = await connectNats({ servers: server.url });
  resources = await openNatsResources(nc, { namespace });
});
afterAll(async () => {
  await nc?.close();
  await server?.stop();
});

describe('troupe steer --nats', { timeout: 60_000 }, () => {
  it('steers the actor of a distributed run where it runs', async () => {
    const nats = ['--nats', server.url, '--namespace', namespace];
    const workspace = mkdtempSync(join(tmpdir(), 'troupe-steer-ws-'));
    execFileSync('mkfifo', [join(workspace, 'gate')]);
    const store = createNatsRunStore(resources);
    const run = startTroupe(['run', 'steered.yaml', '--input', 'go', ...nats], { env: { STEER_WORKSPACE: workspace } });
    const id = await vi.waitFor(
      async () => {
        const [record] = await store.listRuns();
        expect(record).toBeDefined();
        expect((await store.readEvents(record!.id)).some((event) => event.type === 'tool_start')).toBe(true);
        return record!.id;
      },
      { timeout: 30_000, interval: 100 },
    );

    await steerToTheEnd(run, id, workspace, nats);
    const worker = await loadSnapshot(resources, id, 'worker');
    expect(worker?.context.messages.filter((m) => m.role === 'user').map((m) => textOf(m))).toEqual(['go', 'Wrap up.']);
  });
});
