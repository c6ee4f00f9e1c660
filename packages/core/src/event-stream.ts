// From rxjs's index, not `rxjs/internal/Observable` alone, though that loads 200 ms faster and
// 6 MB smaller: measured, a fresh process's first runs of turns were 1.5-2.5 times slower with it
// (tools/bench turn-overhead, cold and after one warm-up; nothing else differed).
import { Observable, type Subscriber } from 'rxjs';
import type { AgentEvent } from './events.js';
import type { UnstampedEvent } from './unstamped-event.js';
import type { AgentPath, RunId } from './ids.js';

const NO_SUBSCRIBERS: readonly Subscriber<AgentEvent>[] = [];
const NO_EVENTS: readonly AgentEvent[] = [];

/** `subscribers` without the ones that unsubscribed (the same array when none did). */
function openOnes(subscribers: readonly Subscriber<AgentEvent>[]): readonly Subscriber<AgentEvent>[] {
  return subscribers.some((subscriber) => subscriber.closed) ? subscribers.filter((subscriber) => !subscriber.closed) : subscribers;
}

/**
 * Where an agent's events go out: stamps the envelope on each payload (run id, path, a `seq` that
 * strictly increases, the clock's time) and hands it to subscribers. With `keepRunEvents` it keeps
 * the current run's events, so a late subscriber gets them first and then follows live.
 *
 * `events$` behaves as an rxjs Subject would, without one: its subscribers are a plain list,
 * replaced (never changed in place) when one comes, so publishing walks the list it finds without
 * copying it (a Subject copies its observers at every change and keeps a Subject object per agent;
 * thousands of agents waiting each kept one, and each published event paid for it). A subscriber
 * that unsubscribed is closed, hears nothing more, and is dropped from the list at the next event
 * or subscription: no teardown per subscription (its closure and rxjs's finalizer array were
 * ~250 bytes per waiting agent).
 */
export class EventStream {
  #subscribers: readonly Subscriber<AgentEvent>[] = NO_SUBSCRIBERS;
  #completed = false;
  readonly #keep: boolean;
  /** The current run's events, with `keepRunEvents` (made at the first one). */
  #kept: AgentEvent[] | undefined;
  #seq: number;
  /** Hears each event first (`AgentOptions.onEvent`). */
  readonly #listener: ((event: AgentEvent) => void) | undefined;

  /** Made at the first read of {@link events$}: many agents are only heard through their listener. */
  #events$: Observable<AgentEvent> | undefined;

  constructor(options: { keepRunEvents: boolean; seq: number; listener?: ((event: AgentEvent) => void) | undefined }) {
    this.#keep = options.keepRunEvents;
    this.#seq = options.seq;
    this.#listener = options.listener;
  }

  /** The events, live (and, when kept, the current run's earlier ones first). The same observable at every read. */
  get events$(): Observable<AgentEvent> {
    this.#events$ ??= new Observable<AgentEvent>((subscriber) => this.#subscribe(subscriber));
    return this.#events$;
  }

  /** The `seq` of the last event published. */
  get seq(): number {
    return this.#seq;
  }

  /** A new run begins: the kept events are dropped. */
  newRun(): void {
    this.#kept = undefined;
  }

  /** Stamps the envelope on `payload` (in place: core makes it with placeholders, see `NO_RUN`) and publishes it. */
  publish(payload: UnstampedEvent, runId: RunId, agentPath: AgentPath, ts: number): AgentEvent {
    const event = payload as AgentEvent;
    event.runId = runId;
    event.agentPath = agentPath;
    event.seq = ++this.#seq;
    event.ts = ts;
    if (this.#keep) {
      if (this.#kept === undefined) this.#kept = [event];
      else this.#kept.push(event);
    }
    this.#listener?.(event);
    // A subscriber that subscribes meanwhile replaces the list: this walk sees the one it started with.
    const subscribers = this.#subscribers;
    let closed = false;
    for (let i = 0; i < subscribers.length; i++) {
      const subscriber = subscribers[i] as Subscriber<AgentEvent>;
      if (subscriber.closed) closed = true;
      else subscriber.next(event);
    }
    if (closed && this.#subscribers === subscribers) this.#subscribers = openOnes(subscribers);
    return event;
  }

  #subscribe(subscriber: Subscriber<AgentEvent>): undefined {
    for (const event of this.#kept ?? NO_EVENTS) subscriber.next(event);
    // As a completed subject would: a subscriber after the end is completed at once.
    if (this.#completed) {
      subscriber.complete();
      return undefined;
    }
    // `concat` makes an array of the exact size; a spread or push reserves room for 17.
    this.#subscribers = openOnes(this.#subscribers).concat(subscriber);
    return undefined;
  }

  /** Completes `events$`. */
  complete(): void {
    this.#completed = true;
    const subscribers = this.#subscribers;
    this.#subscribers = NO_SUBSCRIBERS;
    for (const subscriber of subscribers) if (!subscriber.closed) subscriber.complete();
  }
}
