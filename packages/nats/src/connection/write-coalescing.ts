import type { NatsConnectionImpl, ProtocolHandler } from '@nats-io/nats-core/internal';
import type { NatsConnection } from '@nats-io/transport-node';

/**
 * The members of nats.js's `ProtocolHandler` this relies on (nats-io/nats.js `core/src/protocol.ts`,
 * exported from `@nats-io/nats-core/internal`, pinned at 3.3.0). `flushPending` is declared
 * private there, so it is added by hand.
 */
type ProtocolWriter = Pick<ProtocolHandler, 'outbound' | 'pendingLimit' | 'sendCommand' | 'close' | 'flush'> & { flushPending(): void };

/** Options of {@link coalesceWrites}. */
export interface CoalesceWritesOptions {
  /**
   * Told once, when `nc` is not of the shape this relies on (another nats.js version): its writes
   * then go out as nats.js writes them, slower but correct, and a publish right before `close()`
   * may be lost. `connectNats` routes it to its own `onWarning`.
   */
  onWarning?: (message: string) => void;
}

const encoder = new TextEncoder();

/** Per coalesced connection: queues work to run at its next write (see {@link atNextWrite}). */
const writeHooks = new WeakMap<NatsConnection, (run: () => void) => void>();

/**
 * Runs `run` once this turn of the event loop has done its work: on a coalesced connection, when
 * it writes what the turn queued, right after that write; on another, at `setImmediate`. What `run`
 * and the promise continuations it resolves send goes out together in the next write, one pass of
 * the event loop later. A writer that would rather send one message for several requests of a turn
 * (a group commit) gathers them until then. It does not hold the turn's write: a task or an end
 * record queued in the turn goes out without waiting for a checkpoint to be encoded and sent
 * (measured on the remote round trip: about 40–60 µs sooner on each side, issue 19, round 2).
 */
export function atNextWrite(nc: NatsConnection, run: () => void): void {
  const hook = writeHooks.get(nc);
  if (hook === undefined) setImmediate(run);
  else hook(run);
}

/** What {@link coalesceWrites} needs of the protocol handler, for the warning. */
const NEEDED = ['sendCommand', 'flushPending', 'flush', 'close', 'pendingLimit', 'outbound.fill', 'outbound.size'] as const;

/**
 * Makes `nc` write to its socket once per turn of the event loop instead of once per microtask
 * checkpoint. nats.js writes what was queued at the end of the microtask that queued it
 * (`ProtocolHandler.sendCommand` queues a `flushPending()` microtask when its buffer was empty), so
 * a process that sends a store write, a task and an event batch from different promise
 * continuations of one turn makes a system call for each, and nats-server a read for each; where
 * such a call costs tens of microseconds on both sides (a VM), that was a tenth of the CPU of a
 * remote delegation. Commands now go out at `setImmediate`, still in the same turn (after its I/O
 * callbacks and microtasks), so nothing waits for another turn; a buffer past nats.js's pending
 * limit is still written at once, and closing writes what is pending first
 * (`ProtocolHandler.close()` does not call `flushPending()`: it counted on the microtask's write
 * having happened). A `flush()`'s `PING` (`nc.flush()`, a subscription's `drain()`) goes out with
 * the turn's other commands too: nats.js writes it at once, and a drain per actor let go cost a
 * socket write of its own on both sides. No upstream issue covers these behaviours in nats.js 3.
 * Work queued with {@link atNextWrite} runs right after that write, and what it sends goes out at
 * the next pass of the event loop, in one write.
 *
 * It reaches into nats.js's protocol handler (`NatsConnectionImpl.protocol`), which has this shape
 * in the pinned nats-core 3.3.0; on a connection of another shape it changes nothing, tells
 * `onWarning` once, and returns false.
 */
export function coalesceWrites(nc: NatsConnection, options: CoalesceWritesOptions = {}): boolean {
  const protocol = (nc as Partial<Pick<NatsConnectionImpl, 'protocol'>>).protocol as Partial<ProtocolWriter> | undefined;
  const missing = missingMembers(protocol);
  if (protocol === undefined || missing.length > 0) {
    options.onWarning?.(
      `NATS writes are not coalesced: this nats.js connection's protocol handler lacks ${missing.join(', ')} ` +
        '(Troupe expects the ProtocolHandler of @nats-io/nats-core 3.3.0); writes go out as nats.js makes them',
    );
    return false;
  }
  const writer = protocol as ProtocolWriter;
  let scheduled = false;
  let before: Array<() => void> = [];
  const flush = (): void => {
    writer.flushPending();
    if (before.length === 0) {
      scheduled = false;
      return;
    }
    // What they send is queued by the promise continuations run after this callback: written at
    // the next check phase, in one write.
    const runs = before;
    before = [];
    for (const run of runs) run();
    setImmediate(flush);
  };
  const writeSoon = (): void => {
    if (scheduled) return;
    scheduled = true;
    setImmediate(flush);
  };
  writeHooks.set(nc, (run) => {
    before.push(run);
    writeSoon();
  });
  writer.sendCommand = (command, ...payloads) => {
    writer.outbound.fill(typeof command === 'string' ? encoder.encode(command) : command, ...payloads);
    if (writer.outbound.size() >= writer.pendingLimit) writer.flushPending();
    else writeSoon();
  };
  // nats.js's flush() queues its PING and calls flushPending(): for that call, flushPending waits for the turn's write.
  const ping = writer.flush.bind(writer);
  const flushPending = writer.flushPending;
  writer.flush = (pong) => {
    writer.flushPending = writeSoon;
    try {
      return ping(pong);
    } finally {
      writer.flushPending = flushPending;
    }
  };
  const close = writer.close.bind(writer);
  writer.close = (error) => {
    writer.flushPending();
    return close(error);
  };
  return true;
}

/** The members of {@link NEEDED} that `protocol` lacks (all of them when there is none). */
function missingMembers(protocol: Partial<ProtocolWriter> | undefined): string[] {
  const outbound: Partial<ProtocolWriter['outbound']> | undefined = protocol?.outbound;
  const present: Record<(typeof NEEDED)[number], boolean> = {
    sendCommand: typeof protocol?.sendCommand === 'function',
    flushPending: typeof protocol?.flushPending === 'function',
    flush: typeof protocol?.flush === 'function',
    close: typeof protocol?.close === 'function',
    pendingLimit: typeof protocol?.pendingLimit === 'number',
    'outbound.fill': typeof outbound?.fill === 'function',
    'outbound.size': typeof outbound?.size === 'function',
  };
  return NEEDED.filter((member) => !present[member]);
}
