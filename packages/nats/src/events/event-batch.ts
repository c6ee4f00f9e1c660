import type { AgentEvent } from '@troupe/core';
import { checkShape, described, hasShape, parseJson, type StoredShape, type StoredWhat } from '../store/kv-entries.js';

const EVENT_SHAPE: StoredShape = { type: 'string', runId: 'string', agentPath: 'string', seq: 'number' };

/**
 * Run events travel in batches: one NATS message holds the events a run emitted in one turn of the
 * event loop, as a JSON array in order (a single event may also come as a bare object). Batching
 * costs a run one message per burst instead of one per event, for publishers and followers alike.
 */
export function encodeEventBatch(events: readonly string[]): string {
  return `[${events.join(',')}]`;
}

/** The events of one message of the events stream or subject; `what` names it in errors. */
export function decodeEventBatch(data: Uint8Array, what: StoredWhat): AgentEvent[] {
  const value = parseJson(data, what);
  const items: unknown[] = Array.isArray(value) ? value : [value];
  for (let i = 0; i < items.length; i++) {
    // The error's name is made only for an event that fails the check.
    if (!hasShape(items[i], EVENT_SHAPE)) checkShape(items[i], () => `${described(what)} (event ${i + 1})`, EVENT_SHAPE);
  }
  return items as AgentEvent[];
}
