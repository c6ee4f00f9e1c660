import { AckPolicy, DeliverPolicy, type Consumer } from '@nats-io/jetstream';
import { nanos } from '@nats-io/transport-node';
import type { NatsResources } from '../connection/nats-resources.js';

/**
 * How long a task consumer may go without a pull before the server removes it: the consumer of a
 * graph no worker runs any more (every edit of a graph file makes a new fingerprint, so a new
 * consumer) goes away by itself; its unacked tasks stay in the stream for a consumer made later.
 */
const INACTIVE_CONSUMER_MS = 24 * 60 * 60 * 1000;

/**
 * The durable pull consumer every worker hosting `agent` of graph `graph` (its fingerprint,
 * `graphHash`) competes on, created or brought to these settings (the last worker to start sets
 * the ack wait and deliveries for all).
 *
 * Tasks are routed per graph: each lies on `troupe.<ns>.task.<graph>.<agent>` and each graph's
 * workers have a consumer of their own filtered on it. On a work-queue stream (nats-server 2.9)
 * only one consumer may filter a given subject (a second is refused: "filtered consumer not
 * unique on workqueue stream", code 10100; see nats-io/nats-server#3640), so workers of two graphs cannot share a per-agent subject with a
 * consumer each; and sharing one consumer while a worker of the wrong graph naks what is not its
 * own would hand the task back to any worker of that consumer, the wrong ones included, spending
 * a delivery each time until it is dead-lettered though a right worker is up. With a subject per
 * graph, a task waits on the queue until a worker of its own graph takes it, and no other ever
 * sees it.
 */
export async function taskConsumer(
  resources: NatsResources,
  graph: string,
  agent: string,
  settings: { ackWaitMs: number; maxDeliver: number },
): Promise<Consumer> {
  const { js, jsm, names } = resources;
  const config = {
    durable_name: names.taskConsumer(graph, agent),
    filter_subject: names.taskSubject(graph, agent),
    ack_policy: AckPolicy.Explicit,
    deliver_policy: DeliverPolicy.All,
    ack_wait: nanos(settings.ackWaitMs),
    // One delivery more than allowed, so the last one is seen and dead-lettered by a worker.
    max_deliver: settings.maxDeliver + 1,
    max_ack_pending: -1,
    inactive_threshold: nanos(INACTIVE_CONSUMER_MS),
  };
  try {
    await jsm.consumers.add(names.tasksStream, config);
  } catch {
    await jsm.consumers.update(names.tasksStream, config.durable_name, {
      ack_wait: config.ack_wait,
      max_deliver: config.max_deliver,
      inactive_threshold: config.inactive_threshold,
    });
  }
  return js.consumers.get(names.tasksStream, config.durable_name);
}
