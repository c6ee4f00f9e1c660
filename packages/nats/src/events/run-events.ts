import type { AgentEvent, RunId } from '@troupe/core';
import type { Consumer, ConsumerMessages, JsMsg } from '@nats-io/jetstream';
import { Observable } from 'rxjs';
import { decodeEventBatch } from './event-batch.js';
import type { NatsResources } from '../connection/nats-resources.js';

/** An ordered consumer over one run's events, from the start of the stream. */
function runEventsConsumer(resources: NatsResources, runId: RunId): Promise<Consumer> {
  return resources.js.consumers.get(resources.names.eventsStream, { filter_subjects: resources.names.eventsSubject(runId) });
}

function eventsOf(message: JsMsg): AgentEvent[] {
  return decodeEventBatch(message.data, () => `message ${message.seq} of the events stream`);
}

/** The events of run `runId` stored so far, in the order they were stored; `[]` when it has none. */
export async function readRunEvents(resources: NatsResources, runId: RunId): Promise<AgentEvent[]> {
  const consumer = await runEventsConsumer(resources, runId);
  try {
    const total = (await consumer.info(true)).num_pending;
    const events: AgentEvent[] = [];
    if (total === 0) return events;
    const messages = await consumer.consume({ max_messages: Math.min(total, 1000) });
    let read = 0;
    for await (const message of messages) {
      events.push(...eventsOf(message));
      read += 1;
      // Stop at what was stored when the read began, even if the run goes on.
      if (read >= total || message.info.pending === 0) {
        messages.stop();
        break;
      }
    }
    return events;
  } finally {
    await consumer.delete().catch(() => undefined); // an ordered consumer also goes away by itself when idle
  }
}

/**
 * Every event of run `runId`: those stored so far, then the new ones as they are stored, for
 * `troupe watch`. Never completes by itself while the connection lives; errors when the consumer
 * cannot be created or an event is not valid JSON. Unsubscribing stops and deletes the consumer.
 */
export function followRunEvents(resources: NatsResources, runId: RunId): Observable<AgentEvent> {
  return new Observable<AgentEvent>((subscriber) => {
    let stopped = false;
    let messages: ConsumerMessages | undefined;
    const created = runEventsConsumer(resources, runId);
    const follow = async (): Promise<void> => {
      const consumer = await created;
      if (stopped) return;
      messages = await consumer.consume();
      if (stopped) return messages.stop();
      for await (const message of messages) for (const event of eventsOf(message)) subscriber.next(event);
      subscriber.complete();
    };
    follow().catch((error: unknown) => subscriber.error(error));
    return () => {
      stopped = true;
      // Stop before deleting, or the ordered consumer would recreate itself (nats.js's ordered pull
      // consumer resets when its server consumer goes away: jetstream/src/consumer.ts).
      messages?.stop();
      created.then((consumer) => consumer.delete()).catch(() => undefined); // an ordered consumer also goes away by itself when idle
    };
  });
}
