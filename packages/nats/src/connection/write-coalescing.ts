import type { NatsConnection } from '@nats-io/transport-node';

/** The part of nats.js's protocol handler (nats-core 3.x, not public) that queues and writes outgoing commands. */
interface ProtocolWriter {
  outbound: { size(): number; fill(data: Uint8Array, ...payloads: Uint8Array[]): void };
  pendingLimit: number;
  flushPending(): void;
  sendCommand(command: string | Uint8Array, ...payloads: Uint8Array[]): void;
  close(error?: Error): Promise<void>;
}

const encoder = new TextEncoder();

/**
 * Makes `nc` write to its socket once per turn of the event loop instead of once per microtask
 * checkpoint. nats.js writes what was queued at the end of the microtask that queued it, so a
 * process that sends a store write, a task and an event batch from different promise
 * continuations of one turn makes a system call for each, and nats-server a read for each; where
 * such a call costs tens of microseconds on both sides (a VM), that was a tenth of the CPU of a
 * remote delegation. Commands now go out at `setImmediate`, still in the same turn (after its I/O
 * callbacks and microtasks), so nothing waits for another turn; a buffer past nats.js's pending
 * limit is still written at once, and so is a `flush()`, and closing writes what is pending first
 * (nats.js's close does not: it counted on the microtask's write having happened).
 *
 * It reaches into nats.js's protocol handler, which has this shape in the pinned nats-core 3.x;
 * on a connection of another shape it changes nothing and returns false.
 */
export function coalesceWrites(nc: NatsConnection): boolean {
  const protocol = (nc as { protocol?: Partial<ProtocolWriter> }).protocol;
  if (!isProtocolWriter(protocol)) return false;
  let scheduled = false;
  const flush = (): void => {
    scheduled = false;
    protocol.flushPending();
  };
  protocol.sendCommand = (command, ...payloads) => {
    protocol.outbound.fill(typeof command === 'string' ? encoder.encode(command) : command, ...payloads);
    if (protocol.outbound.size() >= protocol.pendingLimit) {
      protocol.flushPending();
    } else if (!scheduled) {
      scheduled = true;
      setImmediate(flush);
    }
  };
  const close = protocol.close.bind(protocol);
  protocol.close = (error) => {
    protocol.flushPending();
    return close(error);
  };
  return true;
}

function isProtocolWriter(protocol: Partial<ProtocolWriter> | undefined): protocol is ProtocolWriter {
  const outbound = protocol?.outbound;
  return (
    typeof protocol?.sendCommand === 'function' &&
    typeof protocol.flushPending === 'function' &&
    typeof protocol.close === 'function' &&
    typeof protocol.pendingLimit === 'number' &&
    typeof outbound?.fill === 'function' &&
    typeof outbound.size === 'function'
  );
}
