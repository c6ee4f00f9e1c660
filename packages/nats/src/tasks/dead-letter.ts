import type { NatsResources } from '../connection/nats-resources.js';
import type { Task } from './task.js';

/**
 * Moves a task taken `takes` times without finishing (each worker that took it died or was
 * stopped) to its agent's dead-letter subject, with why; returns the deliveries and that reason.
 */
export async function publishDeadLetter(resources: NatsResources, task: Task, takes: number, worker: string): Promise<{ deliveries: number; reason: string }> {
  const { requests, names } = resources;
  const deliveries = takes - 1;
  const reason = `the task for ${task.path} was delivered ${deliveries === 1 ? 'once' : `${deliveries} times`} without finishing (each worker that took it died or was stopped); it was moved to ${names.deadSubject(task.agent)}`;
  await requests.publish(names.deadSubject(task.agent), JSON.stringify({ task, deliveries, reason, worker, at: Date.now() }));
  return { deliveries, reason };
}
