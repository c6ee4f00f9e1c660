import type { Meter, Tracer } from '@opentelemetry/api';

/** Options of {@link createOtelInstrumentation} and {@link instrument}. */
export interface OtelOptions {
  /** Where spans go. Default: the global tracer provider's `@troupe/otel` tracer (a no-op until an SDK is registered). */
  tracer?: Tracer;
  /** Where metrics go. Default: none are recorded. */
  meter?: Meter;
  /**
   * Record message content — prompts, replies, tool arguments and results — on spans. Off by
   * default, as the GenAI conventions ask: content may hold personal or secret data.
   */
  captureContent?: boolean;
  /** Names this process on each agent span (`troupe.host.id`), e.g. a worker's id. */
  hostId?: string;
}
