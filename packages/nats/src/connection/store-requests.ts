import { JetStreamApiError, PubHeaders } from '@nats-io/jetstream';
import { createInbox, errors, headers as natsHeaders, RequestError, type Msg, type MsgHdrs, type NatsConnection } from '@nats-io/transport-node';

/** What JetStream answers a publish it stored. */
export interface StoredAck {
  stream: string;
  /** The message's sequence in the stream (a KV entry's revision). */
  seq: number;
  /** The stream had a message of the same `Nats-Msg-Id` already (within its duplicate window). */
  duplicate: boolean;
}

/** Options of {@link StoreRequests.publish}. */
export interface StorePublishOptions {
  /** `Nats-Msg-Id`: the stream stores a message of that id once within its duplicate window. */
  msgId?: string;
  /** Refused (`wrong last sequence`) unless the subject's last message has this sequence (0: none). */
  expectedLastSubjectSequence?: number;
  headers?: MsgHdrs;
}

interface Pending {
  resolve(msg: Msg): void;
  reject(error: Error): void;
  deadline: number;
}

/** How long a request waits for JetStream's answer, as nats.js's JetStream client does. */
const DEFAULT_TIMEOUT_MS = 5000;

const decoder = new TextDecoder();

/**
 * The JetStream requests a run makes at every step — a publish that waits for the stream's ack, a
 * direct get of a subject's last message — multiplexed on one inbox subscription. nats.js makes
 * each request its own timer, promise wrapper and a stack-traced error object (built even when the
 * request succeeds: `RequestOne.resolver` calls `RequestOne.cancel`, which makes a
 * `RequestError("cancelled")`, in nats.js core/src/request.ts; nats-io/nats.deno#614), which at a
 * dozen requests per remote delegation was a tenth of a process's CPU; here a request is a
 * publish with a reply subject and an entry in a map, timed out by one sweep. It stands in for
 * nats.js's `JetStreamClientImpl.publish` (jetstream/src/jsclient.ts) and direct get
 * (jetstream/src/jsm_direct.ts), whose answers it parses the same way.
 *
 * Contract: failures mirror nats.js's, so callers handle both alike: a timeout rejects with
 * nats.js's `TimeoutError`, a subject no stream listens on (or JetStream not ready after a
 * restart) with a `RequestError` caused by `NoRespondersError`, an error answer of the JetStream API
 * with `JetStreamApiError` (its `code`, e.g. 10071 for a wrong last sequence), and every pending
 * request with `ClosedConnectionError` when the connection closes. Requests sent while the
 * connection is down get no answer and time out (nats.js 3 does not resend them).
 */
export class StoreRequests {
  readonly #nc: NatsConnection;
  readonly #timeoutMs: number;
  readonly #prefix: string;
  readonly #pending = new Map<string, Pending>();
  #next = 0;
  #sweep: ReturnType<typeof setInterval> | undefined;

  constructor(nc: NatsConnection, options: { timeoutMs?: number } = {}) {
    this.#nc = nc;
    this.#timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
    this.#prefix = `${createInbox()}.`;
    // Lives as long as the connection, whose close fails what is pending.
    nc.subscribe(`${this.#prefix}*`, {
      callback: (error, msg) => {
        if (error !== null) return;
        const id = msg.subject.slice(this.#prefix.length);
        const pending = this.#pending.get(id);
        if (pending === undefined) return; // answered after its timeout
        this.#pending.delete(id);
        pending.resolve(msg);
      },
    });
    void nc.closed().then(() => this.#failAll(new errors.ClosedConnectionError()));
  }

  /** Publishes `data` on a subject a stream keeps and resolves with the stream's ack. */
  async publish(subject: string, data: Uint8Array | string, options: StorePublishOptions = {}): Promise<StoredAck> {
    let h = options.headers;
    if (options.msgId !== undefined || options.expectedLastSubjectSequence !== undefined) {
      h ??= natsHeaders();
      if (options.msgId !== undefined) h.set(PubHeaders.MsgIdHdr, options.msgId);
      if (options.expectedLastSubjectSequence !== undefined) h.set(PubHeaders.ExpectedLastSubjectSequenceHdr, String(options.expectedLastSubjectSequence));
    }
    const reply = await this.#request(subject, data, h);
    const answer = JSON.parse(decoder.decode(reply.data)) as Partial<StoredAck> & { error?: { code: number; err_code: number; description: string } };
    if (answer.error !== undefined) throw new JetStreamApiError(answer.error);
    if (typeof answer.stream !== 'string' || typeof answer.seq !== 'number')
      throw new JetStreamApiError({ code: 500, err_code: 0, description: `invalid ack from ${subject}` });
    return { stream: answer.stream, seq: answer.seq, duplicate: answer.duplicate === true };
  }

  /** The last message stored on `subject` in `stream` (which must allow direct gets), or null when it has none. */
  async lastMessage(stream: string, subject: string): Promise<Msg | null> {
    const reply = await this.#request(`$JS.API.DIRECT.GET.${stream}.${subject}`, new Uint8Array(0), undefined);
    const status = reply.headers?.code ?? 0;
    if (status === 404) return null;
    if (status !== 0) throw new JetStreamApiError({ code: status, err_code: 0, description: reply.headers?.description || `direct get of ${subject} failed` });
    return reply;
  }

  #request(subject: string, data: Uint8Array | string, h: MsgHdrs | undefined): Promise<Msg> {
    return new Promise<Msg>((resolve, reject) => {
      const id = (this.#next++).toString(36);
      this.#pending.set(id, {
        deadline: Date.now() + this.#timeoutMs,
        resolve: (msg) =>
          msg.headers?.code === 503 ? reject(new RequestError('no responders', { cause: new errors.NoRespondersError(subject) })) : resolve(msg),
        reject,
      });
      this.#sweepSoon();
      try {
        this.#nc.publish(subject, data, h === undefined ? { reply: this.#prefix + id } : { reply: this.#prefix + id, headers: h });
      } catch (error) {
        this.#pending.delete(id);
        reject(error instanceof Error ? error : new Error(String(error)));
      }
    });
  }

  /** Times out what waited too long, checking a few times per timeout while anything is pending. */
  #sweepSoon(): void {
    if (this.#sweep !== undefined) return;
    this.#sweep = setInterval(
      () => {
        const now = Date.now();
        for (const [id, pending] of this.#pending) {
          if (pending.deadline > now) continue;
          this.#pending.delete(id);
          pending.reject(new errors.TimeoutError());
        }
        if (this.#pending.size === 0) {
          clearInterval(this.#sweep);
          this.#sweep = undefined;
        }
      },
      Math.max(10, this.#timeoutMs / 4),
    );
    // The connection's socket keeps the process alive while requests are pending.
    this.#sweep.unref();
  }

  #failAll(error: Error): void {
    for (const pending of this.#pending.values()) pending.reject(error);
    this.#pending.clear();
    clearInterval(this.#sweep);
    this.#sweep = undefined;
  }
}
