import type { Transport, TransportSendOptions } from '@modelcontextprotocol/sdk/shared/transport.js';
import type { JSONRPCMessage, MessageExtraInfo } from '@modelcontextprotocol/sdk/types.js';

const nextTick: (fn: () => void) => void = typeof setImmediate === 'function' ? (fn) => void setImmediate(fn) : (fn) => void setTimeout(fn, 0);

/**
 * Wraps a transport so that messages that arrive together reach the client one macrotask apart,
 * and a close after them comes last. The SDK handles a notification one microtask later than it
 * receives it but settles a response at once, dropping the request's progress handler: without
 * this, a server's last progress notification that shares a read with the result (a pipe under
 * load, an SSE chunk) is lost. Works around the SDK's `Protocol._onnotification` /
 * `_onresponse` / `_onprogress` (src/shared/protocol.ts): modelcontextprotocol/typescript-sdk#2580;
 * the fix proposed there (#2586) drops such late progress, where Troupe delivers it.
 */
export class OrderedTransport implements Transport {
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: <T extends JSONRPCMessage>(message: T, extra?: MessageExtraInfo) => void;

  readonly inner: Transport;
  readonly #queue: [JSONRPCMessage, MessageExtraInfo | undefined][] = [];
  #busy = false;
  #closed = false;

  constructor(inner: Transport) {
    this.inner = inner;
  }

  get sessionId(): string | undefined {
    return this.inner.sessionId;
  }

  setProtocolVersion(version: string): void {
    this.inner.setProtocolVersion?.(version);
  }

  start(): Promise<void> {
    this.inner.onmessage = (message, extra) => this.#receive(message, extra);
    this.inner.onerror = (error) => this.onerror?.(error);
    this.inner.onclose = () => {
      this.#closed = true;
      if (!this.#busy) this.onclose?.();
    };
    return this.inner.start();
  }

  send(message: JSONRPCMessage, options?: TransportSendOptions): Promise<void> {
    return this.inner.send(message, options);
  }

  close(): Promise<void> {
    return this.inner.close();
  }

  #receive(message: JSONRPCMessage, extra: MessageExtraInfo | undefined): void {
    this.#queue.push([message, extra]);
    if (this.#busy) return;
    this.#busy = true;
    this.#deliver();
  }

  #deliver(): void {
    const next = this.#queue.shift();
    if (next === undefined) {
      this.#busy = false;
      if (this.#closed) this.onclose?.();
      return;
    }
    this.onmessage?.(next[0], next[1]);
    nextTick(() => this.#deliver());
  }
}
