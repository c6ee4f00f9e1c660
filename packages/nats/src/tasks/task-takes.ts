import type { JsMsg } from '@nats-io/jetstream';
import { kvKey } from '../connection/nats-names.js';
import type { NatsResources } from '../connection/nats-resources.js';
import type { Task } from './task.js';

/** How often a task message was taken, as {@link countTakes} tells. */
export interface Takes {
  /** The actor never checkpointed: host it fresh from the task's input. */
  first: boolean;
  /** Takes of this message, this one included. */
  count: number;
}

/**
 * How often the task message `msg` has been taken, this take included, and whether its actor may
 * start fresh. JetStream's delivery count cannot be trusted alone: after a worker dies with pull
 * requests outstanding, nats-server 2.9 may hand a message out again as a first delivery, or keep
 * its count at 1 through redeliveries (nats-io/nats-server#4460). So a plain task starts fresh only while its actor has no
 * checkpoint (it checkpoints before it runs any tool: a fresh start repeats no side effect), and a
 * message taken again keeps its own count in the actors bucket (`<run>.<path>.takes.<stream seq>`,
 * outside the actor records' keys), written only then. The count is the higher of that and
 * JetStream's.
 */
export async function countTakes(resources: NatsResources, task: Task, msg: JsMsg): Promise<Takes> {
  const server = msg.info.deliveryCount;
  const plain = task.resume !== true && task.command === undefined && task.input !== undefined;
  if (plain) {
    const head = await resources.heads.get(kvKey(task.runId, task.path));
    if (head?.operation !== 'PUT') return { first: true, count: server };
  }
  const key = kvKey(task.runId, task.path, 'takes', String(msg.seq));
  const entry = await resources.actors.get(key);
  // Without a count, a plain task was taken once before, fresh (a fresh take writes none).
  const before = entry?.operation === 'PUT' ? Number(entry.string()) : plain ? 1 : 0;
  const count = Math.max(server, before + 1);
  await resources.actors.put(key, String(count));
  return { first: false, count };
}
