import { trace, type Tracer } from '@opentelemetry/api';
import type { OtelOptions } from './otel-options.js';
import { TroupeMetrics } from './troupe-metrics.js';

/** The name Troupe's tracer and meter are known by. */
export const INSTRUMENTATION_SCOPE = '@troupe/otel';

/** Where spans and metrics are written, and how much of the content goes in them. */
export interface SpanSinks {
  tracer: Tracer;
  metrics: TroupeMetrics | undefined;
  /** Record prompts, replies, tool arguments and results (off by default, as the conventions ask). */
  captureContent: boolean;
  /** Names this process on each agent span (a worker's id). */
  hostId?: string;
}

/** The sinks `options` ask for. */
export function spanSinks(options: OtelOptions): SpanSinks {
  return {
    tracer: options.tracer ?? trace.getTracer(INSTRUMENTATION_SCOPE),
    metrics: options.meter === undefined ? undefined : new TroupeMetrics(options.meter),
    captureContent: options.captureContent === true,
    ...(options.hostId === undefined ? {} : { hostId: options.hostId }),
  };
}
