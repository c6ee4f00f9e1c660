import type { Instrumentation, Logger } from '@troupe/runtime';
import type { CliIo } from '../cli-io.js';
import { resolveOtelConfig, type OtelFlags } from './otel-config.js';

/** What a command body gets from {@link withTelemetry}. */
export interface TelemetryScope {
  /** For the runtime or worker the command builds; absent when telemetry is off. */
  instrumentation?: Instrumentation;
  /** The command's io; with telemetry on, SIGTERM aborts through its signal (when `terminate: 'abort'`). */
  io: CliIo;
}

/** Options of {@link withTelemetry}. */
export interface WithTelemetryOptions {
  /** Names this process on agent spans: a worker's id. */
  hostId?: string;
  /**
   * `abort`: with telemetry on, SIGTERM aborts the command as Ctrl-C does, so its spans end and are
   * exported before the process exits (instead of it dying with them). For commands that show a
   * run; a worker handles SIGTERM itself.
   */
  terminate?: 'abort';
}

/**
 * Runs `body` with telemetry as the `OTEL_*` environment and the `--otel` flags ask (see
 * resolveOtelConfig), then exports what is left and stops it, also when `body` throws. When
 * nothing asks for it, `body` runs with no instrumentation and the SDK is not loaded at all.
 * Ignored settings and a collector that cannot be reached are logged as warnings on `logger`.
 */
export async function withTelemetry<T>(
  flags: OtelFlags,
  io: CliIo,
  logger: Logger,
  options: WithTelemetryOptions,
  body: (scope: TelemetryScope) => Promise<T>,
): Promise<T> {
  const { config, problems } = resolveOtelConfig(io.env, flags);
  for (const problem of problems) logger.warn(`telemetry: ${problem}`);
  if (config === undefined) return body({ io });
  // Loaded only now: a command without telemetry never imports the SDK.
  const { startTelemetry } = await import('./otel-sdk.js');
  const telemetry = startTelemetry(config, { logger, stderr: io.stderr, ...(options.hostId === undefined ? {} : { hostId: options.hostId }) });
  const terminated = new AbortController();
  const off = options.terminate === 'abort' ? io.onTerminate?.(() => terminated.abort()) : undefined;
  const scoped: CliIo = off === undefined ? io : { ...io, signal: AbortSignal.any([io.signal, terminated.signal]) };
  try {
    return await body({ instrumentation: telemetry.instrumentation, io: scoped });
  } finally {
    off?.();
    await telemetry.shutdown();
  }
}
