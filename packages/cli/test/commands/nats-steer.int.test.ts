/**
 * `troupe steer --nats` on a real nats-server: the steering message reaches the actor of a
 * distributed run through its control subject, in whichever process hosts it (here the `troupe
 * run --nats` process hosting its entry, blocked in a bash call on a FIFO), and enters its
 * conversation before its next model call; a path with no actor is refused with the actors that
 * run, and a run that has ended is said so.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { textOf } from '@troupe/core';
import {
  connectNats, createNatsRunStore, loadSnapshot, openNatsResources, startNatsServer, type NatsConnection, type NatsResources, type NatsServerProcess,
} from '@troupe/runtime/nats';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { spawnTroupe, startTroupe } from '../spawn-troupe.js';

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

    const wrong = await spawnTroupe(['steer', id, 'worker/nobody#1', 'Wrap up.', ...nats]);
    expect(wrong.stderr).toBe(`troupe steer: no actor worker/nobody#1 in run ${id}; running: worker\n`);
    expect(wrong.code).toBe(2);
    const steered = await spawnTroupe(['steer', id, 'Wrap up.', ...nats]);
    expect(steered.stdout).toBe(`steered worker of run ${id}\n`);
    expect(steered.code).toBe(0);

    writeFileSync(join(workspace, 'gate'), 'open\n');
    const ended = await run.exited;
    expect(ended.stdout).toBe('Gate said: open\n');
    expect(ended.code).toBe(0);
    const worker = await loadSnapshot(resources, id, 'worker');
    expect(worker?.context.messages.filter((m) => m.role === 'user').map((m) => textOf(m))).toEqual(['go', 'Wrap up.']);

    const late = await spawnTroupe(['steer', id, 'Again.', ...nats]);
    expect(late.code).toBe(2);
    expect(late.stderr).toBe(`troupe steer: run ${id} has ended (done): there is nothing to steer\n`);
  });
});
