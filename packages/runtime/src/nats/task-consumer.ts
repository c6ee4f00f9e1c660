import { AckPolicy, DeliverPolicy, type Consumer } from '@nats-io/jetstream';
import { nanos } from '@nats-io/transport-node';
import type { NatsResources } from './nats-resources.js';

/**
 * The durable pull consumer every worker hosting `agent` competes on, created or brought to these
 * settings (the last worker to start sets the ack wait and deliveries for all).
 */
export async function taskConsumer(resources: NatsResources, agent: string, settings: { ackWaitMs: number; maxDeliver: number }): Promise<Consumer> {
  const { js, jsm, names } = resources;
  const config = {
    durable_name: names.taskConsumer(agent),
    filter_subject: names.taskSubject(agent),
    ack_policy: AckPolicy.Explicit,
    deliver_policy: DeliverPolicy.All,
    ack_wait: nanos(settings.ackWaitMs),
    // One delivery more than allowed, so the last one is seen and dead-lettered by a worker.
    max_deliver: settings.maxDeliver + 1,
    max_ack_pending: -1,
  };
  try {
    await jsm.consumers.add(names.tasksStream, config);
  } catch {
    await jsm.consumers.update(names.tasksStream, config.durable_name, { ack_wait: config.ack_wait, max_deliver: config.max_deliver });
  }
  return js.consumers.get(names.tasksStream, config.durable_name);
}
