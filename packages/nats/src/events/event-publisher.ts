import { TroupeError, type AgentEvent, type RunId } from '@troupe/core';
import { JsHeaders, PubHeaders } from '@nats-io/jetstream';
import { Empty, headers, nuid, type NatsConnection } from '@nats-io/transport-node';
import type { ConnectionWatch } from '../connection/connection-watch.js';
import { NatsErrorCode } from '../nats-error-code.js';
import { encodeEventBatch } from './event-batch.js';
import type { NatsNames } from '../connection/nats-names.js';
import type { StoreRequests } from '../connection/store-requests.js';

/** The header naming the publisher of a batch of events (see {@link EventPublisher.origin}). */
export const ORIGIN_HEADER = 'Troupe-Origin';

/** Room left in a payload for the `Nats-Msg-Id` and origin headers. */
const HEADER_ROOM = 128;
/** The server's default, used until the connection has said otherwise. */
const DEFAULT_MAX_PAYLOAD = 1024 * 1024;
/** How often events still unconfirmed are confirmed in the background (one small stored message each time). */
const CONFIRM_INTERVAL_MS = 50;

interface Outgoing {
  /** The first event of the batch (named when the batch cannot be stored). */
  event: AgentEvent;
  subject: string;
  data: Uint8Array;
  /** Lets the events stream drop a copy resent after a reconnect. */
  id: string;
  /** The connection epoch it was last sent in; -1 while never sent. */
  epoch: number;
}

/**
 * Publishes run events with core publishes (fast, no round trip per event) and still loses none:
 * each event is kept until an acknowledged publish sent after it to the events stream came back
 * on the same connection (the stream stores in arrival order, so that ack means the events before
 * it are stored; a `PING` would only mean the server received them, and a server stopping drops
 * what it has not stored yet). Events are sent again after a reconnect (nats.js 3 drops what was
 * written while the connection was down: nats-io/nats.js#213) and carry a `Nats-Msg-Id`, so the stream stores a resent
 * copy once (within its duplicate window). While events flow, a confirmation runs every
 * {@link CONFIRM_INTERVAL_MS} in the background, so little is kept; {@link flush} runs one at once.
 */
export class EventPublisher {
  /** Stamped on every batch (header {@link ORIGIN_HEADER}), so this process can skip its own events when they come back. */
  readonly origin = nuid.next();
  readonly #nc: NatsConnection;
  readonly #requests: StoreRequests;
  readonly #names: NatsNames;
  readonly #watch: ConnectionWatch;
  #pending: Outgoing[] = [];
  /** Events of this turn of the event loop, per run, not sent yet. */
  readonly #batches = new Map<string, Array<{ event: AgentEvent; json: string }>>();
  #scheduled = false;
  readonly #encoder = new TextEncoder();
  readonly #failures = new Map<string, TroupeError>();
  #confirming = false;
  #maxPayload = DEFAULT_MAX_PAYLOAD;

  constructor(options: { nc: NatsConnection; requests: StoreRequests; names: NatsNames; connection: ConnectionWatch }) {
    this.#nc = options.nc;
    this.#requests = options.requests;
    this.#names = options.names;
    this.#watch = options.connection;
    this.#watch.onReconnect(() => {
      for (const outgoing of this.#pending) this.#send(outgoing);
      this.#confirmSoon();
    });
  }

  /**
   * Sends `event` on its run's subject, batched with the other events its run emits in this turn
   * of the event loop (see `encodeEventBatch`). An event too large for one payload is not stored:
   * the run's next {@link flush} rejects.
   */
  publish(event: AgentEvent): void {
    const json = JSON.stringify(event);
    const batch = this.#batches.get(event.runId);
    if (batch === undefined) this.#batches.set(event.runId, [{ event, json }]);
    else batch.push({ event, json });
    if (this.#scheduled) return;
    this.#scheduled = true;
    setImmediate(() => this.#sendBatches());
  }

  /** Sends every batch gathered so far, each split to fit in one payload. */
  #sendBatches(): void {
    this.#scheduled = false;
    if (this.#batches.size === 0) return;
    this.#maxPayload = this.#nc.info?.max_payload ?? this.#maxPayload;
    const room = this.#maxPayload - HEADER_ROOM;
    for (const batch of this.#batches.values()) {
      let part: string[] = [];
      let first: AgentEvent | undefined;
      let size = 2;
      const send = (): void => {
        if (first === undefined) return;
        const outgoing: Outgoing = {
          event: first,
          subject: this.#names.eventsSubject(first.runId),
          data: this.#encoder.encode(encodeEventBatch(part)),
          id: nuid.next(),
          epoch: -1,
        };
        this.#pending.push(outgoing);
        if (this.#watch.connected) this.#send(outgoing);
        part = [];
        first = undefined;
        size = 2;
      };
      for (const { event, json } of batch) {
        const bytes = Buffer.byteLength(json);
        if (bytes + 2 > room) {
          this.#fail(event, `is ${bytes} bytes, over the NATS max payload of ${this.#maxPayload}`, { size: bytes, maxPayload: this.#maxPayload });
          continue;
        }
        if (size + bytes + 1 > room) send();
        part.push(json);
        first ??= event;
        size += bytes + 1;
      }
      send();
    }
    this.#batches.clear();
    this.#confirmSoon();
  }

  /**
   * Resolves once the events stream has stored every event published before the call (waiting
   * for a reconnect if needed); rejects with the first event of `runId` that could not be stored.
   */
  async flush(runId: RunId): Promise<void> {
    await this.settle();
    const failure = this.#failures.get(runId);
    if (failure !== undefined) {
      this.#failures.delete(runId);
      throw failure;
    }
  }

  /** Like {@link flush}, without reporting events that could not be stored. */
  async settle(): Promise<void> {
    this.#sendBatches();
    const wanted = new Set(this.#pending);
    do await this.#confirm();
    while (this.#pending.some((outgoing) => wanted.has(outgoing)));
  }

  #send(outgoing: Outgoing): void {
    const h = headers();
    h.set(PubHeaders.MsgIdHdr, outgoing.id);
    h.set(ORIGIN_HEADER, this.origin);
    try {
      this.#nc.publish(outgoing.subject, outgoing.data, { headers: h });
      outgoing.epoch = this.#watch.epoch;
    } catch (error) {
      // Closed: it stays pending, and the next flush reports the closed connection. Anything else
      // (a server with a smaller max payload) will not change by sending again.
      if (this.#nc.isClosed()) return;
      this.#pending = this.#pending.filter((pending) => pending !== outgoing);
      this.#fail(outgoing.event, `could not be sent: ${error instanceof Error ? error.message : String(error)}`, {});
    }
  }

  /** Remembers that `event` was not stored, for its run's next flush. */
  #fail(event: AgentEvent, why: string, data: Record<string, unknown>): void {
    if (this.#failures.has(event.runId)) return;
    const message = `event ${event.seq} (${event.type}) of ${event.agentPath} in run ${event.runId} ${why}: it was not stored`;
    this.#failures.set(
      event.runId,
      new TroupeError(NatsErrorCode.EventNotStored, message, { data: { runId: event.runId, agentPath: event.agentPath, seq: event.seq, ...data } }),
    );
  }

  /** Confirms what was sent so far and forgets it, if the connection stayed up meanwhile. */
  async #confirm(): Promise<void> {
    const { epoch, sent } = await this.#watch.retry(async () => {
      const epoch = this.#watch.epoch;
      const sent = new Set(this.#pending.filter((outgoing) => outgoing.epoch === epoch));
      // Rolled up: the stream keeps only the latest of these markers.
      const h = headers();
      h.set(JsHeaders.RollupHdr, JsHeaders.RollupValueSubject);
      await this.#requests.publish(this.#names.eventsFlushSubject, Empty, { headers: h });
      return { epoch, sent };
    });
    if (this.#watch.epoch === epoch) this.#pending = this.#pending.filter((outgoing) => !(sent.has(outgoing) && outgoing.epoch === epoch));
  }

  /** Schedules a background confirmation, unless one is due or the connection is down. */
  #confirmSoon(): void {
    if (this.#confirming || !this.#watch.connected) return;
    this.#confirming = true;
    const timer = setTimeout(() => {
      this.#confirm().then(
        () => {
          this.#confirming = false;
          if (this.#pending.some((outgoing) => outgoing.epoch === this.#watch.epoch)) this.#confirmSoon();
        },
        () => {
          // The events stay pending until the next publish, reconnect or flush, which reports a lasting failure.
          this.#confirming = false;
        },
      );
    }, CONFIRM_INTERVAL_MS);
    // Durability is what flush() is for; a pending confirmation does not keep the process alive.
    timer.unref();
  }
}
