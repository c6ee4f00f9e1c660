import { ExportResultCode, hrTimeToMilliseconds, type ExportResult } from '@opentelemetry/core';
import type { PushMetricExporter, ResourceMetrics } from '@opentelemetry/sdk-metrics';
import type { ReadableSpan, SpanExporter } from '@opentelemetry/sdk-trace-base';
import type { Writer } from '../cli-io.js';

/*
 * The `console` exporters of OTEL_TRACES_EXPORTER / OTEL_METRICS_EXPORTER. The SDK's own write to
 * standard output with console.dir, which is where `troupe run` prints the answer: these write one
 * JSON line per span, or per metric, to standard error instead.
 */

/** Writes each finished span as a JSON line to `write`. */
export function stderrSpanExporter(write: Writer): SpanExporter {
  return {
    export(spans: ReadableSpan[], done: (result: ExportResult) => void): void {
      for (const span of spans) {
        const context = span.spanContext();
        const line = {
          span: span.name,
          traceId: context.traceId,
          spanId: context.spanId,
          parentSpanId: span.parentSpanContext?.spanId,
          durationMs: hrTimeToMilliseconds(span.duration),
          status: span.status,
          attributes: span.attributes,
          events: span.events.map((event) => ({ name: event.name, attributes: event.attributes })),
        };
        write(`${JSON.stringify(line)}\n`);
      }
      done({ code: ExportResultCode.SUCCESS });
    },
    shutdown: () => Promise.resolve(),
  };
}

/** Writes each metric collected (its name and data points) as a JSON line to `write`. */
export function stderrMetricExporter(write: Writer): PushMetricExporter {
  return {
    export(metrics: ResourceMetrics, done: (result: ExportResult) => void): void {
      for (const scope of metrics.scopeMetrics) {
        for (const metric of scope.metrics) {
          write(`${JSON.stringify({ metric: metric.descriptor.name, unit: metric.descriptor.unit, dataPoints: metric.dataPoints })}\n`);
        }
      }
      done({ code: ExportResultCode.SUCCESS });
    },
    forceFlush: () => Promise.resolve(),
    shutdown: () => Promise.resolve(),
  };
}
