import { Match, type MsgHdrs } from '@nats-io/transport-node';
import type { TraceCarrier } from '@troupe/runtime';

/** The W3C Trace Context header naming the trace and the span a task's actor starts under. */
export const TRACEPARENT_HEADER = 'traceparent';
/** The W3C Trace Context header with vendor-specific trace state, when the carrier has one. */
export const TRACESTATE_HEADER = 'tracestate';

/**
 * Stamps `trace` on a task message as its W3C headers (`traceparent`, `tracestate`), so any NATS
 * tracing tool reads them and the body stays the task alone. A field that is absent, empty or not
 * a valid header value (a line break) is left out: a trace is best effort, the task must go.
 */
export function stampTrace(headers: MsgHdrs, trace: TraceCarrier | undefined): void {
  for (const name of [TRACEPARENT_HEADER, TRACESTATE_HEADER]) {
    const value = trace?.[name];
    if (value !== undefined && value !== '' && !/[\r\n]/.test(value)) headers.set(name, value);
  }
}

/**
 * The trace context a task message carries in its W3C headers (names matched in any case, as
 * HTTP's are); undefined without a `traceparent` (a `tracestate` alone means nothing, per the W3C
 * spec), as for a task published without one.
 */
export function traceFromHeaders(headers: MsgHdrs | undefined): TraceCarrier | undefined {
  const traceparent = headers?.get(TRACEPARENT_HEADER, Match.IgnoreCase) ?? '';
  if (traceparent === '') return undefined;
  const tracestate = headers?.get(TRACESTATE_HEADER, Match.IgnoreCase) ?? '';
  return tracestate === '' ? { traceparent } : { traceparent, tracestate };
}

/** `{ trace }` when there is one, for spreading into a spawn request, a task or a record. */
export function traceField(trace: TraceCarrier | undefined): { trace?: TraceCarrier } {
  return trace === undefined ? {} : { trace };
}
