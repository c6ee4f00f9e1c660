/**
 * W3C Trace Context fields (`traceparent`, and `tracestate` when there is one) that travel with
 * what a run starts elsewhere (a spawned actor, a task on a queue, a wake-up), so what happens
 * there joins the trace of whoever started it. Plain strings: any tracer can read them.
 */
export type TraceCarrier = Readonly<Record<string, string>>;
