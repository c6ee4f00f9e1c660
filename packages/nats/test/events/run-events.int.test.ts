/**
 * followRunEvents on a real nats-server: it replays a run's stored events from the start, then
 * follows new ones as they are stored, only that run's; unsubscribing stops and deletes its
 * consumer.
 */
import { createRunId, parseAgentPath, type AgentEvent, type RunId } from '@troupe/core';
import type { Subscription } from 'rxjs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connectNats, createNatsRunStore, followRunEvents, openNatsResources, type NatsResources } from '../../src/index.js';
import { startNatsServer, type NatsServerProcess } from '../../src/testing.js';

let server: NatsServerProcess;
let resources: NatsResources;

beforeAll(async () => {
  server = await startNatsServer();
  resources = await openNatsResources(await connectNats({ servers: server.url }), { namespace: 'follow' });
});

afterAll(async () => {
  await resources?.nc.close();
  await server?.stop();
});

const event = (runId: RunId, seq: number): AgentEvent => ({ type: 'turn_start', turn: seq, runId, agentPath: parseAgentPath('lead'), seq, ts: seq });

describe('followRunEvents', () => {
  it('replays the stored events of a run, then follows new ones', async () => {
    const store = createNatsRunStore(resources);
    const [runId, other] = [createRunId(1), createRunId(2)];
    await store.createRun({ id: runId, entry: 'lead', input: 'hi', status: 'running', startedAt: 0 });
    for (const seq of [0, 1, 2]) {
      store.appendEvent(event(runId, seq));
      store.appendEvent(event(other, seq));
    }
    await store.flush(runId);
    const seen: number[] = [];
    let replayed!: () => void;
    const caughtUp = new Promise<void>((resolve) => (replayed = resolve));
    const followed = new Promise<void>((resolve) => {
      const subscription = followRunEvents(resources, runId).subscribe((e) => {
        seen.push(e.seq);
        if (seen.length === 3) replayed();
        if (seen.length === 5) {
          subscription.unsubscribe();
          resolve();
        }
      });
    });
    await caughtUp;
    expect(seen).toEqual([0, 1, 2]);
    for (const seq of [3, 4]) store.appendEvent(event(runId, seq));
    await followed;
    expect(seen).toEqual([0, 1, 2, 3, 4]);
  });

  it('stops and deletes its consumer when unsubscribed', async () => {
    const { jsm, names } = resources;
    const runId = createRunId(3);
    const consumers = async (): Promise<number> => (await jsm.streams.info(names.eventsStream)).state.consumer_count;
    const before = await consumers();
    resources.events.publish(event(runId, 0));
    await resources.events.settle();
    let subscription: Subscription | undefined;
    const first = new Promise<AgentEvent>((resolve) => (subscription = followRunEvents(resources, runId).subscribe(resolve)));
    expect((await first).seq).toBe(0);
    expect(await consumers()).toBe(before + 1);
    subscription?.unsubscribe();
    await expect.poll(consumers, { interval: 20, timeout: 5000 }).toBe(before);
  });
});
