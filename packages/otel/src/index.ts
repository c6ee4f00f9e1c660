export { createOtelInstrumentation } from './otel-instrumentation.js';
export { INSTRUMENTATION_SCOPE } from './span-sinks.js';
export { instrument } from './instrument-agent.js';
export { GenAi, Metric, Operation, SpanEvent, TroupeAttr } from './semconv.js';
export { carrierOf, spanContextOf } from './trace-context.js';

export type { InstrumentedAgent } from './instrument-agent.js';
export type { OtelOptions } from './otel-options.js';
