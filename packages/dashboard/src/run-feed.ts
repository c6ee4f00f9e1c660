import type { AgentEvent } from '@troupe/core';

/** An event of a run as the page gets it: `seq` is its index in the run's event log. */
export interface FeedEvent {
  seq: number;
  event: AgentEvent;
}

/** Called with each event of a feed, in order. */
export type FeedListener = (item: FeedEvent) => void;

/**
 * One run's event log as the dashboard has seen it, numbered from 0 in the order it arrived (the
 * order of the run's log: its events file, its handle's stream, or its NATS stream), and the
 * listeners following it. A subscriber names the last `seq` it has, so a page that reconnects gets
 * exactly what it missed: nothing lost, nothing twice.
 */
export class RunFeed {
  readonly #events: AgentEvent[] = [];
  readonly #listeners = new Set<FeedListener>();
  #stop: (() => void) | undefined;

  /** `stop` ends what fills the feed, once it is closed. */
  constructor(stop?: () => void) {
    this.#stop = stop;
  }

  /** How many events the feed holds. */
  get size(): number {
    return this.#events.length;
  }

  /** Appends an event and hands it to every listener. */
  push(event: AgentEvent): void {
    const item = { seq: this.#events.length, event };
    this.#events.push(event);
    for (const listener of this.#listeners) listener(item);
  }

  /** Sets what ends the feed's source (when it is known only after the feed is made). */
  onClose(stop: () => void): void {
    this.#stop = stop;
  }

  /**
   * Hands `listener` every event after `after` (-1: from the start) held so far, then each new
   * one as it comes; returns the function that stops it.
   */
  follow(after: number, listener: FeedListener): () => void {
    for (let seq = Math.max(0, after + 1); seq < this.#events.length; seq++) listener({ seq, event: this.#events[seq] as AgentEvent });
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }

  /** Stops the source and every listener. */
  close(): void {
    this.#listeners.clear();
    this.#stop?.();
    this.#stop = undefined;
  }
}
