/**
 * The lean JetStream requests (StoreRequests) and the KV handle over them (Bucket), on a real
 * nats-server: they keep nats.js's KV semantics — revisions, create only where absent or deleted,
 * update only over the given revision, delete markers — and fail as nats.js does (a wrong last
 * sequence, no responders, a timeout, a closed connection), so callers treat both alike. A bucket
 * that does not allow direct gets is served through nats.js.
 */
import { jetstreamManager, JetStreamApiError } from '@nats-io/jetstream';
import { Kvm } from '@nats-io/kv';
import { errors, RequestError, type NatsConnection } from '@nats-io/transport-node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Bucket, isWrongLastSequence } from '../../src/connection/bucket.js';
import { connectNats, openNatsResources } from '../../src/index.js';
import { startNatsServer, type NatsServerProcess } from '../../src/testing.js';
import { StoreRequests } from '../../src/connection/store-requests.js';

let server: NatsServerProcess;
let nc: NatsConnection;
let requests: StoreRequests;
let buckets = 0;

beforeAll(async () => {
  server = await startNatsServer();
  nc = await connectNats({ servers: server.url });
  requests = new StoreRequests(nc);
});

afterAll(async () => {
  await nc?.close();
  await server?.stop();
});

async function freshBucket(options: { allow_direct?: boolean } = {}): Promise<Bucket> {
  const name = `b${++buckets}`;
  return Bucket.open(name, await new Kvm(nc).create(name, { history: 1, ...options }), requests, await jetstreamManager(nc));
}

describe('Bucket', () => {
  it('puts and gets with growing revisions; an unwritten key is null', async () => {
    const bucket = await freshBucket();
    const first = await bucket.put('run.lead', JSON.stringify({ status: 'running' }));
    const second = await bucket.put('run.lead', JSON.stringify({ status: 'ended' }));
    expect(second).toBeGreaterThan(first);
    const entry = await bucket.get('run.lead');
    expect(entry).toMatchObject({ key: 'run.lead', revision: second, operation: 'PUT' });
    expect(entry?.json()).toEqual({ status: 'ended' });
    expect(entry?.string()).toBe('{"status":"ended"}');
    expect(await bucket.get('run.other')).toBeNull();
  });

  it('creates only where the key is absent or deleted, and updates only over the revision given', async () => {
    const bucket = await freshBucket();
    const created = await bucket.create('k', 'one');
    const again = bucket.create('k', 'two');
    await expect(again).rejects.toBeInstanceOf(JetStreamApiError);
    expect(isWrongLastSequence(await again.catch((error: unknown) => error))).toBe(true);

    const updated = await bucket.update('k', 'three', created);
    const stale = await bucket.update('k', 'four', created).catch((error: unknown) => error);
    expect(isWrongLastSequence(stale)).toBe(true);
    expect((await bucket.get('k'))?.string()).toBe('three');

    // Deleted through nats.js: the key reads back as a delete marker, and takes a create again.
    await (await new Kvm(nc).open(bucket.name)).delete('k');
    expect(await bucket.get('k')).toMatchObject({ operation: 'DEL' });
    expect(await bucket.create('k', 'five')).toBeGreaterThan(updated);
    expect((await bucket.get('k'))?.string()).toBe('five');
  });

  it('lists keys from the stream (deleted ones too, which get says), and watches through nats.js', async () => {
    const bucket = await freshBucket();
    expect(await bucket.keys()).toEqual([]);
    await bucket.put('run1.a', '1');
    await bucket.put('run1.b', '2');
    await bucket.put('run2.a', '3');
    await bucket.put('run1.c', '4');
    await new Kvm(nc).open(bucket.name).then((kv) => kv.delete('run1.c'));
    expect((await bucket.keys('run1.*')).sort()).toEqual(['run1.a', 'run1.b', 'run1.c']);
    expect((await bucket.get('run1.c'))?.operation).toBe('DEL');
    const watch = await bucket.watch({ key: 'run2.*' });
    for await (const entry of watch) {
      expect(entry).toMatchObject({ key: 'run2.a', operation: 'PUT' });
      break;
    }
  });

  it('lists keys while the bucket is written (regression: nats.js kv.keys() could hang then)', async () => {
    const bucket = await freshBucket();
    await bucket.put('run.record', '0');
    let writing = true;
    const writer = (async () => {
      for (let i = 1; writing; i++) await bucket.put('run.record', String(i));
    })();
    for (let i = 0; i < 50; i++) expect(await bucket.keys()).toEqual(['run.record']);
    writing = false;
    await writer;
  });

  it('serves a bucket that does not allow direct gets through nats.js', async () => {
    const bucket = await freshBucket({ allow_direct: false });
    const revision = await bucket.put('k', 'v');
    expect(await bucket.get('k')).toMatchObject({ revision, operation: 'PUT' });
    expect(isWrongLastSequence(await bucket.create('k', 'w').catch((error: unknown) => error))).toBe(true);
  });

  it('is what openNatsResources gives for every bucket of a namespace', async () => {
    const resources = await openNatsResources(nc, { namespace: 'buckets' });
    for (const bucket of [resources.runs, resources.actors, resources.heads, resources.messages, resources.children]) expect(bucket).toBeInstanceOf(Bucket);
    await resources.actors.put('r.a', 'x');
    expect((await resources.actors.get('r.a'))?.string()).toBe('x');
  });
});

describe('StoreRequests', () => {
  it('stores a message once per message id', async () => {
    const resources = await openNatsResources(nc, { namespace: 'dedupe' });
    const subject = resources.names.taskSubject('0123456789abcdef', 'helper');
    const first = await requests.publish(subject, 'task', { msgId: 'run:lead/helper#1' });
    const second = await requests.publish(subject, 'task', { msgId: 'run:lead/helper#1' });
    expect(first).toMatchObject({ stream: resources.names.tasksStream, duplicate: false });
    expect(second).toMatchObject({ seq: first.seq, duplicate: true });
  });

  it('fails like nats.js: no responders, a timeout, a closed connection', async () => {
    const noStream = await requests.publish('nobody.keeps.this', 'x').catch((error: unknown) => error);
    expect(noStream).toBeInstanceOf(RequestError);
    expect((noStream as RequestError).isNoResponders()).toBe(true);

    const own = await connectNats({ servers: server.url });
    const quick = new StoreRequests(own, { timeoutMs: 100 });
    own.subscribe('silent.store', { callback: () => undefined });
    await own.flush();
    await expect(quick.publish('silent.store', 'x')).rejects.toBeInstanceOf(errors.TimeoutError);

    const pending = quick.publish('silent.store', 'x');
    await own.close();
    await expect(pending).rejects.toBeInstanceOf(errors.ClosedConnectionError);
  });
});
