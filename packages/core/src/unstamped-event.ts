import type { AgentEventPayload, EventEnvelope } from './events.js';
import type { AgentPath, RunId } from './ids.js';

/**
 * The envelope fields an event is made with, before `EventStream.publish` stamps the real ones:
 * core writes every event literal with `runId: NO_RUN, agentPath: NO_PATH, seq: 0, ts: 0` last.
 *
 * Why: V8 keeps an object literal's fields in the object itself; fields added later (as the
 * envelope was, at publish) change its hidden class four times and go to a separate property
 * store (an extra allocation that grows once, ~80 B per event, kept as long as the run's events
 * are). Written last, the fields keep the order events always had (payload, then envelope).
 */
export const NO_RUN = '' as RunId;

/** The `agentPath` an event is made with (see {@link NO_RUN}). */
export const NO_PATH = '' as AgentPath;

/** An event before its envelope is stamped on: core makes each with the placeholders above (see {@link NO_RUN}). */
export type UnstampedEvent = AgentEventPayload & Partial<EventEnvelope>;
