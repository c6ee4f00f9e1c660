import type { AgentEventPayload, EventEnvelope } from './events.js';
import type { AgentPath, RunId } from './ids.js';

/**
 * The envelope fields an event is made with, before `EventStream.publish` stamps the real ones:
 * core writes every event literal with `runId: NO_RUN, agentPath: NO_PATH, seq: 0, ts: NO_TS` last.
 *
 * Why: V8 keeps an object literal's fields in the object itself; fields added later (as the
 * envelope was, at publish) change its hidden class four times and go to a separate property
 * store (an extra allocation that grows once, ~80 B per event, kept as long as the run's events
 * are). Written last, the fields keep the order events always had (payload, then envelope).
 */
export const NO_RUN = '' as RunId;

/** The `agentPath` an event is made with (see {@link NO_RUN}). */
export const NO_PATH = '' as AgentPath;

/**
 * The `ts` an event is made with: a number that is not a small integer, as the timestamp stamped
 * later is not. A field made with `0` (a small integer) and then given `Date.now()` changes how V8
 * stores it, which deprecates the event's hidden class and throws away the optimized code that
 * used it: a turn's first runs took twice as long.
 */
export const NO_TS = Number.NaN;

/**
 * An event before its envelope is stamped on: core makes each with the placeholders above (see
 * {@link NO_RUN}). The envelope fields are required, not optional, so that the compiler checks
 * every literal carries them: one that forgot them would still work but silently be born with
 * another hidden class (and the property store the placeholders exist to avoid).
 */
export type UnstampedEvent = AgentEventPayload & EventEnvelope;
