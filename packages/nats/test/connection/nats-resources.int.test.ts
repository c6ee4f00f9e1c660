/**
 * openNatsResources on a real nats-server: two processes (two connections) opening one namespace
 * at the same moment both succeed and get the same streams and buckets; a stream created earlier
 * with other settings gets Troupe's subjects and ages without losing its messages.
 */
import { jetstream, jetstreamManager, RetentionPolicy } from '@nats-io/jetstream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connectNats, natsNames, openNatsResources, type NatsConnection } from '../../src/index.js';
import { startNatsServer, type NatsServerProcess } from '../../src/testing.js';

let server: NatsServerProcess;
let a: NatsConnection;
let b: NatsConnection;

beforeAll(async () => {
  server = await startNatsServer();
  [a, b] = await Promise.all([connectNats({ servers: server.url }), connectNats({ servers: server.url })]);
});

afterAll(async () => {
  await a?.close();
  await b?.close();
  await server?.stop();
});

describe('openNatsResources', () => {
  it('opens one namespace from two connections at the same moment', async () => {
    const [first, second] = await Promise.all([openNatsResources(a, { namespace: 'twice' }), openNatsResources(b, { namespace: 'twice' })]);
    const names = natsNames('twice');
    const tasks = await first.jsm.streams.info(names.tasksStream);
    expect(tasks.config).toMatchObject({ retention: RetentionPolicy.Workqueue, subjects: ['troupe.twice.task.>'], duplicate_window: 120_000_000_000 });
    expect((await first.jsm.streams.info(names.eventsStream)).config.subjects).toEqual(['troupe.twice.run.*.events', names.eventsFlushSubject]);
    expect((await first.jsm.streams.info(names.deadStream)).config.retention).toBe(RetentionPolicy.Limits);
    await first.runs.put('k', 'v');
    expect((await second.runs.get('k'))?.string()).toBe('v');
    expect((await first.jsm.consumers.list(names.tasksStream).next()).length).toBe(0);
  });

  it('reconciles a stream that exists with other settings, keeping its messages', async () => {
    const names = natsNames('older');
    const jsm = await jetstreamManager(a);
    await jsm.streams.add({ name: names.eventsStream, subjects: ['troupe.older.run.*.events'], max_age: 1_000_000_000_000 });
    await jetstream(a).publish('troupe.older.run.r1.events', 'kept');
    const resources = await openNatsResources(b, { namespace: 'older', eventsMaxAgeMs: 60_000 });
    const events = await resources.jsm.streams.info(names.eventsStream);
    expect(events.config).toMatchObject({
      subjects: ['troupe.older.run.*.events', names.eventsFlushSubject],
      max_age: 60_000_000_000,
      duplicate_window: 60_000_000_000,
      allow_rollup_hdrs: true,
    });
    expect(events.state.messages).toBe(1);
  });
});
