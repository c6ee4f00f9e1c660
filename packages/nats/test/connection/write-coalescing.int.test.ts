/**
 * A connection from connectNats writes once per turn of the event loop: commands queued from
 * several microtasks of one turn reach the socket in one write, in order, and still within that
 * turn; a flush and request/reply work as before, and closing sends what is pending; work queued
 * with atNextWrite runs once that write is out (a group commit does not hold it), and what its
 * continuations publish goes out together in the next. It also pins that the nats.js version in use
 * has the protocol handler the adapter expects (an upgrade that changes it fails here, not
 * silently in the benchmarks).
 */
import { connect, type NatsConnection } from '@nats-io/transport-node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connectNats } from '../../src/index.js';
import { startNatsServer, type NatsServerProcess } from '../../src/testing.js';
import { atNextWrite, coalesceWrites } from '../../src/connection/write-coalescing.js';

let server: NatsServerProcess;
let nc: NatsConnection;

beforeAll(async () => {
  server = await startNatsServer();
  nc = await connectNats({ servers: server.url });
});

afterAll(async () => {
  await nc?.close();
  await server?.stop();
});

/** Counts the socket writes of `connection` (through nats.js's protocol handler, which the adapter wraps). */
function countWrites(connection: NatsConnection): { readonly count: number } {
  const protocol = (connection as unknown as { protocol: { transport: { send(frame: Uint8Array): void } } }).protocol;
  const transport = protocol.transport;
  const send = transport.send.bind(transport);
  const counter = { count: 0 };
  transport.send = (frame) => {
    counter.count += 1;
    send(frame);
  };
  return counter;
}

describe('coalesceWrites', () => {
  it('applies to a connection of the pinned nats.js, and not to something of another shape', async () => {
    const plain = await connect({ servers: server.url });
    try {
      expect(coalesceWrites(plain)).toBe(true);
    } finally {
      await plain.close();
    }
    expect(coalesceWrites({} as NatsConnection)).toBe(false);
  });

  it('sends what several microtasks of one turn publish in one write, in order, within the turn', async () => {
    const received: string[] = [];
    const sub = nc.subscribe('coalesce.order', { callback: (_error, msg) => void received.push(msg.string()) });
    await nc.flush();
    const writes = countWrites(nc);
    const sentInTurn = new Promise<number>((resolve) => {
      setImmediate(() => {
        // Five publishes, each from its own promise continuation.
        let chain = Promise.resolve();
        for (let i = 0; i < 5; i++) chain = chain.then(() => nc.publish('coalesce.order', String(i)));
        void chain.then(() => setImmediate(() => resolve(writes.count)));
      });
    });
    expect(await sentInTurn).toBe(1);
    await nc.flush();
    expect(received).toEqual(['0', '1', '2', '3', '4']);
    sub.unsubscribe();
  });

  it("sends a flush's PING (a subscription's drain) with the turn's other commands, and its PONG still comes", async () => {
    const received: string[] = [];
    const sub = nc.subscribe('coalesce.drain', { callback: (_error, msg) => void received.push(msg.string()) });
    await nc.flush();
    const writes = countWrites(nc);
    const drained = new Promise<{ writes: number; drained: Promise<void> }>((resolve) => {
      setImmediate(() => {
        nc.publish('coalesce.drain', 'before');
        const done = sub.drain();
        nc.publish('coalesce.other', 'after');
        setImmediate(() => resolve({ writes: writes.count, drained: done }));
      });
    });
    const { writes: count, drained: done } = await drained;
    expect(count).toBe(1);
    await done;
    expect(received).toEqual(['before']);
    expect(sub.isClosed()).toBe(true);
  });

  it("writes the turn's commands without waiting for work queued for that write, then what the work's continuations publish, in one write", async () => {
    const received: string[] = [];
    const sub = nc.subscribe('coalesce.hook', { callback: (_error, msg) => void received.push(msg.string()) });
    await nc.flush();
    const writes = countWrites(nc);
    const sent = new Promise<{ whenRun: number; after: number }>((resolve) => {
      setImmediate(() => {
        nc.publish('coalesce.hook', 'first');
        // Queued after the write was scheduled; its publishes come two continuations later.
        void new Promise<number>((ran) => atNextWrite(nc, () => ran(writes.count)))
          .then((whenRun) => whenRun)
          .then((whenRun) => {
            nc.publish('coalesce.hook', 'gathered');
            nc.publish('coalesce.hook', 'gathered too');
            setImmediate(() => setImmediate(() => resolve({ whenRun, after: writes.count })));
          });
      });
    });
    // The turn's write was out when the work ran; what it published went out in one more.
    expect(await sent).toEqual({ whenRun: 1, after: 2 });
    await nc.flush();
    expect(received).toEqual(['first', 'gathered', 'gathered too']);
    sub.unsubscribe();
  });

  it('runs work queued on a connection it does not coalesce at setImmediate', async () => {
    const plain = await connect({ servers: server.url });
    try {
      await expect(new Promise<string>((resolve) => atNextWrite(plain, () => resolve('ran')))).resolves.toBe('ran');
    } finally {
      await plain.close();
    }
  });

  it('still answers requests and flushes', async () => {
    const sub = nc.subscribe('coalesce.echo', { callback: (_error, msg) => void msg.respond(`echo ${msg.string()}`) });
    const replies = await Promise.all(Array.from({ length: 20 }, (_, i) => nc.request('coalesce.echo', String(i))));
    expect(replies.map((reply) => reply.string())).toEqual(Array.from({ length: 20 }, (_, i) => `echo ${i}`));
    await expect(nc.flush()).resolves.toBeUndefined();
    sub.unsubscribe();
  });

  it('writes what is pending when the connection closes in the same turn', async () => {
    const received: string[] = [];
    const sub = nc.subscribe('coalesce.last', { callback: (_error, msg) => void received.push(msg.string()) });
    await nc.flush();
    const closing = await connectNats({ servers: server.url });
    closing.publish('coalesce.last', 'before close');
    await closing.close();
    await expect.poll(() => received).toEqual(['before close']);
    sub.unsubscribe();
  });

  it('writes a burst larger than the pending limit without waiting for the turn to end', async () => {
    const writes = countWrites(nc);
    const payload = new Uint8Array(64 * 1024);
    for (let i = 0; i < 40; i++) nc.publish('coalesce.big', payload);
    // 2.5 MB queued in one synchronous burst: nats.js's pending limit makes it write along the way.
    expect(writes.count).toBeGreaterThan(0);
    await nc.flush();
  });
});
