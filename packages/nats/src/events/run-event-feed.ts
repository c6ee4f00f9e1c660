import type { Subscription as NatsSubscription } from '@nats-io/transport-node';
import type { AgentEvent, RunId } from '@troupe/core';
import { Observable, Subject } from 'rxjs';
import { decodeEventBatch } from './event-batch.js';
import { ORIGIN_HEADER } from './event-publisher.js';
import type { NatsResources } from '../connection/nats-resources.js';

interface Feed {
  events: Subject<AgentEvent>;
  subscription: NatsSubscription;
  observers: number;
}

/**
 * Every event of a run, for the followers in this process: one subscription to the run's events
 * subject per run while anyone follows it, shared by all of them. Events of actors hosted in this
 * process are handed over directly ({@link local}) and skipped when they come back from NATS.
 */
export class RunEventFeed {
  readonly #resources: NatsResources;
  readonly #feeds = new Map<string, Feed>();

  constructor(resources: NatsResources) {
    this.#resources = resources;
  }

  /** The run's events from now on (hot). */
  follow(runId: RunId): Observable<AgentEvent> {
    return new Observable<AgentEvent>((subscriber) => {
      const feed = this.#open(runId);
      const subscription = feed.events.subscribe(subscriber);
      return () => {
        subscription.unsubscribe();
        this.#close(runId, feed);
      };
    });
  }

  /** Hands an event of an actor hosted here to the run's followers. */
  local(event: AgentEvent): void {
    this.#feeds.get(event.runId)?.events.next(event);
  }

  close(): void {
    for (const feed of this.#feeds.values()) {
      feed.subscription.unsubscribe();
      feed.events.complete();
    }
    this.#feeds.clear();
  }

  #open(runId: RunId): Feed {
    const existing = this.#feeds.get(runId);
    if (existing !== undefined) {
      existing.observers += 1;
      return existing;
    }
    const { nc, names, events: publisher } = this.#resources;
    const events = new Subject<AgentEvent>();
    const subject = names.eventsSubject(runId);
    // Named once per run, not per message (reading `msg.subject` decodes it again each time).
    const what = `a message on ${subject}`;
    const subscription = nc.subscribe(subject, {
      callback: (error, msg) => {
        if (error !== null) return events.error(error);
        if (msg.headers?.get(ORIGIN_HEADER) === publisher.origin) return;
        try {
          for (const event of decodeEventBatch(msg.data, what)) events.next(event);
        } catch (failure) {
          events.error(failure);
        }
      },
    });
    const feed: Feed = { events, subscription, observers: 1 };
    this.#feeds.set(runId, feed);
    return feed;
  }

  #close(runId: RunId, feed: Feed): void {
    feed.observers -= 1;
    if (feed.observers > 0 || this.#feeds.get(runId) !== feed) return;
    feed.subscription.unsubscribe();
    this.#feeds.delete(runId);
  }
}
