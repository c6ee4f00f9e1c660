import type { Meter, Tracer } from '@opentelemetry/api';
import { ExportResultCode, type ExportResult } from '@opentelemetry/core';
import { OTLPMetricExporter } from '@opentelemetry/exporter-metrics-otlp-http';
import { OTLPTraceExporter } from '@opentelemetry/exporter-trace-otlp-http';
import { resourceFromAttributes, type Resource } from '@opentelemetry/resources';
import { MeterProvider, PeriodicExportingMetricReader, type PushMetricExporter } from '@opentelemetry/sdk-metrics';
import { BasicTracerProvider, BatchSpanProcessor, type SpanExporter } from '@opentelemetry/sdk-trace-base';
import { createOtelInstrumentation } from '@troupe/otel';
import type { Instrumentation, Logger } from '@troupe/runtime';
import type { Writer } from '../cli-io.js';
import { packageVersion } from '../package-version.js';
import type { OtelConfig, SignalExport } from './otel-config.js';
import { stderrMetricExporter, stderrSpanExporter } from './stderr-exporters.js';

/*
 * The OpenTelemetry SDK of a command. This module (and through it the SDK and the exporters) is
 * only imported dynamically, by withTelemetry, when the configuration asks for telemetry.
 */

/** The most a collector may take to answer one export, and the whole flush at exit. */
export const EXPORT_TIMEOUT_MS = 3000;

/** Telemetry running in this process. */
export interface Telemetry {
  /** For `createRuntime({ instrumentation })` and workers. */
  readonly instrumentation: Instrumentation;
  /**
   * Exports what is left (the spans batched, the metrics collected since the last export) and
   * stops. Resolves within about {@link EXPORT_TIMEOUT_MS}, even when a collector does not answer
   * (a warning is logged then); never rejects.
   */
  shutdown(): Promise<void>;
}

/** Options of {@link startTelemetry}. */
export interface TelemetryOptions {
  /** Gets one warning when an exporter cannot reach its collector, and one when the flush at exit times out. */
  logger: Logger;
  /** Where the `console` exporters write (standard error). */
  stderr: Writer;
  /** Names this process on agent spans (`troupe.host.id`) and in the resource (`service.instance.id`): a worker's id. */
  hostId?: string;
}

/**
 * Starts a tracer provider (a batch span processor and an OTLP/HTTP JSON exporter) and a meter
 * provider (a periodic reader and an OTLP/HTTP exporter) as `config` says, and the `@troupe/otel`
 * instrumentation over them. Nothing is registered globally: the providers are given to the
 * instrumentation only.
 */
export function startTelemetry(config: OtelConfig, options: TelemetryOptions): Telemetry {
  const resource = resourceFromAttributes({
    ...config.resourceAttributes,
    'service.name': config.serviceName,
    'service.version': packageVersion(),
    ...(options.hostId === undefined ? {} : { 'service.instance.id': options.hostId }),
  });
  const warn = warnOnce(options.logger);
  const tracerProvider = config.traces === undefined ? undefined : tracerProviderFor(config.traces, resource, warn, options.stderr);
  const meterProvider = config.metrics === undefined ? undefined : meterProviderFor(config.metrics, resource, warn, options.stderr);
  // The API the instrumentation is written against, given this process's providers (none is made global).
  const tracer: Tracer | undefined = tracerProvider?.getTracer('@troupe/cli', packageVersion());
  const meter: Meter | undefined = meterProvider?.getMeter('@troupe/cli', packageVersion());
  const instrumentation = createOtelInstrumentation({
    captureContent: config.captureContent,
    ...(tracer === undefined ? {} : { tracer }),
    ...(meter === undefined ? {} : { meter }),
    ...(options.hostId === undefined ? {} : { hostId: options.hostId }),
  });
  return {
    instrumentation,
    async shutdown() {
      let timer: NodeJS.Timeout | undefined;
      const timedOut = new Promise<'timeout'>((resolve) => {
        timer = setTimeout(() => resolve('timeout'), EXPORT_TIMEOUT_MS + 500);
        // A dead collector must not hold the process open; main.ts exits once the command returns.
        timer.unref();
      });
      const flushed = Promise.all([tracerProvider?.shutdown(), meterProvider?.shutdown()]).then(
        () => 'flushed' as const,
        (error: unknown) => warn('flush', error),
      );
      const outcome = await Promise.race([flushed, timedOut]);
      clearTimeout(timer);
      if (outcome === 'timeout')
        options.logger.warn({ timeoutMs: EXPORT_TIMEOUT_MS }, 'telemetry: the collector did not take the last spans and metrics in time');
    },
  };
}

/** Logs the first export failure only: a collector that is down would otherwise log at every batch. */
function warnOnce(logger: Logger): (what: string, error: unknown) => void {
  let warned = false;
  return (what, error) => {
    if (warned) return;
    warned = true;
    logger.warn({ err: error }, `telemetry: could not export ${what}; the run goes on without them`);
  };
}

/** The result callback of an exporter, warning on failure. */
function watched(done: (result: ExportResult) => void, what: string, warn: (what: string, error: unknown) => void): (result: ExportResult) => void {
  return (result) => {
    if (result.code !== ExportResultCode.SUCCESS) warn(what, result.error);
    done(result);
  };
}

function tracerProviderFor(signal: SignalExport, resource: Resource, warn: (what: string, error: unknown) => void, stderr: Writer): BasicTracerProvider {
  const inner =
    signal.exporter === 'console'
      ? stderrSpanExporter(stderr)
      : new OTLPTraceExporter({ url: signal.url, headers: { ...signal.headers }, timeoutMillis: EXPORT_TIMEOUT_MS });
  const what = signal.exporter === 'otlp' ? `spans to ${signal.url}` : 'spans';
  const exporter: SpanExporter = {
    export: (spans, done) => inner.export(spans, watched(done, what, warn)),
    shutdown: () => inner.shutdown(),
    forceFlush: () => inner.forceFlush?.() ?? Promise.resolve(),
  };
  return new BasicTracerProvider({ resource, spanProcessors: [new BatchSpanProcessor(exporter, { exportTimeoutMillis: EXPORT_TIMEOUT_MS })] });
}

function meterProviderFor(signal: SignalExport, resource: Resource, warn: (what: string, error: unknown) => void, stderr: Writer): MeterProvider {
  const inner: PushMetricExporter =
    signal.exporter === 'console'
      ? stderrMetricExporter(stderr)
      : new OTLPMetricExporter({ url: signal.url, headers: { ...signal.headers }, timeoutMillis: EXPORT_TIMEOUT_MS });
  const what = signal.exporter === 'otlp' ? `metrics to ${signal.url}` : 'metrics';
  const exporter: PushMetricExporter = {
    export: (metrics, done) => inner.export(metrics, watched(done, what, warn)),
    forceFlush: () => inner.forceFlush(),
    shutdown: () => inner.shutdown(),
    // The OTLP exporter chooses the temporality (cumulative unless OTEL_EXPORTER_OTLP_METRICS_TEMPORALITY_PREFERENCE says otherwise).
    ...(inner.selectAggregationTemporality === undefined ? {} : { selectAggregationTemporality: inner.selectAggregationTemporality.bind(inner) }),
    ...(inner.selectAggregation === undefined ? {} : { selectAggregation: inner.selectAggregation.bind(inner) }),
  };
  return new MeterProvider({ resource, readers: [new PeriodicExportingMetricReader({ exporter, exportTimeoutMillis: EXPORT_TIMEOUT_MS })] });
}
