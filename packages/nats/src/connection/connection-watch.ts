import { setTimeout as sleep } from 'node:timers/promises';
import { TroupeError } from '@troupe/core';
import { errors, RequestError, type NatsConnection } from '@nats-io/transport-node';
import { NatsErrorCode } from '../nats-error-code.js';

/** Failures of one operation on a connection that stayed up before it is given up. */
const MAX_FAILURES = 4;

/**
 * Follows a connection's statuses: whether it is up, and an `epoch` that grows at every
 * disconnect and reconnect, so a confirmation can tell whether the connection its writes went
 * through is still the current one. nats.js 3 drops what was written while a connection was
 * down (`ProtocolHandler.resetOutbound` on each dial, nats.js core/src/protocol.ts; nats-io/nats.js#213) (each reconnect attempt clears the outbound buffer) and requests sent then time out, so
 * writers wait for the connection with {@link whenConnected} or {@link retry}, and resend on
 * {@link onReconnect}.
 */
export class ConnectionWatch {
  #connected: boolean;
  #epoch = 0;
  #closed = false;
  #waiters: Array<{ resolve: () => void; reject: (error: Error) => void }> = [];
  readonly #reconnectListeners = new Set<() => void>();

  constructor(readonly nc: NatsConnection) {
    this.#connected = !nc.isClosed();
    void this.#follow().catch(() => undefined); // the status iterator ends with the connection; it does not throw
    void nc.closed().then(
      () => this.#close(),
      () => this.#close(),
    );
  }

  /** Whether the connection is up, as far as its statuses have told. */
  get connected(): boolean {
    return this.#connected;
  }

  /** Grows at every disconnect and reconnect. */
  get epoch(): number {
    return this.#epoch;
  }

  /** Resolves once the connection is up; rejects with `nats_connection_closed` once it is closed. */
  whenConnected(): Promise<void> {
    if (this.#closed) return Promise.reject(closedError());
    if (this.#connected) return Promise.resolve();
    return new Promise((resolve, reject) => this.#waiters.push({ resolve, reject }));
  }

  /** Calls `listener` synchronously after each reconnect, before waiters resume; returns an unsubscribe function. */
  onReconnect(listener: () => void): () => void {
    this.#reconnectListeners.add(listener);
    return () => this.#reconnectListeners.delete(listener);
  }

  /**
   * Runs a request-like operation once the connection is up, and again after a failure a
   * reconnect explains (a timeout, a dropped request, JetStream not ready yet after a restart).
   * A failure on a connection that stayed up is retried a few times with back-off, then thrown.
   */
  async retry<T>(operation: () => Promise<T>): Promise<T> {
    let failures = 0;
    for (;;) {
      await this.whenConnected();
      const epoch = this.#epoch;
      try {
        return await operation();
      } catch (error) {
        if (this.#closed || !isTransient(error)) throw error;
        if (epoch === this.#epoch) {
          if (++failures > MAX_FAILURES) throw error;
          await sleep(100 * 2 ** failures);
        }
      }
    }
  }

  async #follow(): Promise<void> {
    for await (const status of this.nc.status()) {
      if (status.type === 'disconnect') {
        this.#connected = false;
        this.#epoch++;
      } else if (status.type === 'reconnect') {
        // Also when the disconnect was missed: what went out before may be lost.
        this.#epoch++;
        this.#connected = true;
        for (const listener of this.#reconnectListeners) listener();
        for (const waiter of this.#waiters.splice(0)) waiter.resolve();
      }
    }
  }

  #close(): void {
    this.#closed = true;
    this.#connected = false;
    for (const waiter of this.#waiters.splice(0)) waiter.reject(closedError());
  }
}

function closedError(): TroupeError {
  return new TroupeError(NatsErrorCode.ConnectionClosed, 'the NATS connection is closed');
}

/**
 * A failure a reconnect explains. JetStream not ready yet after a server restart is matched by
 * name: nats.js's `JetStreamNotEnabled` (jetstream/src/jserrors.ts) is exported only from
 * `@nats-io/jetstream/internal`, and a name survives a second copy of the package.
 */
function isTransient(error: unknown): boolean {
  return error instanceof errors.TimeoutError || error instanceof RequestError || (error instanceof Error && error.name === 'JetStreamNotEnabled');
}
