import { context as contexts, createTraceState, isSpanContextValid, trace, type Context, type SpanContext } from '@opentelemetry/api';
import type { TraceCarrier } from '@troupe/runtime';

// W3C Trace Context, version 00: `00-<32 hex trace id>-<16 hex span id>-<2 hex flags>`.
// Encoded here rather than through the global propagator, which is a no-op until an SDK registers
// one: a library user who hands Troupe a tracer would otherwise lose every cross-process parent.
const TRACEPARENT = /^00-([0-9a-f]{32})-([0-9a-f]{16})-([0-9a-f]{2})$/;

/** The W3C headers of `context`, or undefined for an invalid (non-recording no-op) context. */
export function carrierOf(context: SpanContext): TraceCarrier | undefined {
  if (!isSpanContextValid(context)) return undefined;
  const flags = (context.traceFlags & 0xff).toString(16).padStart(2, '0');
  const traceparent = `00-${context.traceId}-${context.spanId}-${flags}`;
  const state = context.traceState?.serialize();
  return state === undefined || state === '' ? { traceparent } : { traceparent, tracestate: state };
}

/** The remote span context `carrier` names, or undefined when it names none or is malformed. */
export function spanContextOf(carrier: TraceCarrier | undefined): SpanContext | undefined {
  const match = carrier?.['traceparent'] === undefined ? null : TRACEPARENT.exec(carrier['traceparent']);
  if (match === null) return undefined;
  const [, traceId = '', spanId = '', flags = '00'] = match;
  const context: SpanContext = { traceId, spanId, traceFlags: Number.parseInt(flags, 16), isRemote: true };
  const state = carrier?.['tracestate'];
  if (state !== undefined && state !== '') context.traceState = createTraceState(state);
  return isSpanContextValid(context) ? context : undefined;
}

/** A context whose parent is what `carrier` names; without one, the caller's active context (an application's own span, if any). */
export function contextOf(carrier: TraceCarrier | undefined): Context {
  const parent = spanContextOf(carrier);
  const active = contexts.active();
  return parent === undefined ? active : trace.setSpanContext(active, parent);
}
