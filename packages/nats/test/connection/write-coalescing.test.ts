/**
 * When nats.js's protocol handler is not of the shape the write coalescing reaches into (another
 * nats.js version), coalescing says so once, naming what is missing, leaves the connection as it
 * was, and returns false; before, it did nothing without a word. (That the pinned nats.js has the
 * expected shape is pinned by write-coalescing.int.test.ts.)
 */
import type { NatsConnection } from '@nats-io/transport-node';
import { describe, expect, it } from 'vitest';
import { coalesceWrites } from '../../src/connection/write-coalescing.js';

describe('coalesceWrites on a connection of another shape', () => {
  it('warns once, naming the missing members, and changes nothing', () => {
    const sendCommand = (): void => undefined;
    const close = (): Promise<void> => Promise.resolve();
    // A protocol handler that writes differently: no flushPending, no outbound buffer.
    const protocol = { sendCommand, close, pendingLimit: 1024 };
    const warnings: string[] = [];
    expect(coalesceWrites({ protocol } as unknown as NatsConnection, { onWarning: (message) => warnings.push(message) })).toBe(false);
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toContain('flushPending, flush, outbound.fill, outbound.size');
    expect(warnings[0]).toContain('@nats-io/nats-core 3.3.0');
    expect(protocol.sendCommand).toBe(sendCommand);
    expect(protocol.close).toBe(close);
  });

  it('warns once for a connection with no protocol handler at all', () => {
    const warnings: string[] = [];
    expect(coalesceWrites({} as NatsConnection, { onWarning: (message) => warnings.push(message) })).toBe(false);
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toContain('lacks sendCommand, flushPending, flush, close, pendingLimit, outbound.fill, outbound.size');
  });
});
