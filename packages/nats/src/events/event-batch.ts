import type { AgentEvent } from '@troupe/core';
import { checkShape, parseJson, type StoredShape } from '../store/kv-entries.js';

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
export function decodeEventBatch(data: Uint8Array, what: string): AgentEvent[] {
  const value = parseJson(data, what);
  const items: unknown[] = Array.isArray(value) ? value : [value];
  return items.map((item, i) => checkShape<AgentEvent>(item, `${what} (event ${i + 1})`, EVENT_SHAPE));
}
