/** Where one signal (traces or metrics) is exported. */
export type SignalExport =
  /** OTLP/HTTP (JSON) to `url`, the signal's full endpoint, with `headers`. */
  | { exporter: 'otlp'; url: string; headers: Readonly<Record<string, string>> }
  /** JSON lines on standard error (standard output is the run's answer). */
  | { exporter: 'console' };

/** What the CLI exports, resolved from the `OTEL_*` environment and the `--otel` flags. */
export interface OtelConfig {
  /** Absent: no spans are recorded. */
  traces?: SignalExport;
  /** Absent: no metrics are recorded. */
  metrics?: SignalExport;
  /** The resource's `service.name`: `OTEL_SERVICE_NAME`, else `service.name` of `OTEL_RESOURCE_ATTRIBUTES`, else `troupe`. */
  serviceName: string;
  /** `OTEL_RESOURCE_ATTRIBUTES`, decoded. */
  resourceAttributes: Readonly<Record<string, string>>;
  /** Record message content on spans (`--otel-content` or `OTEL_INSTRUMENTATION_GENAI_CAPTURE_MESSAGE_CONTENT=true`). */
  captureContent: boolean;
}

/** The `--otel` flags of a command. */
export interface OtelFlags {
  /** An OTLP/HTTP base URL: traces go to `<url>/v1/traces`, metrics to `<url>/v1/metrics`, whatever the environment says. */
  otel?: string;
  otelContent?: boolean;
}

/** The resolved configuration, or none when nothing asks for telemetry; `problems` are values that were ignored. */
export interface OtelResolution {
  config: OtelConfig | undefined;
  problems: string[];
}

/** The default OTLP/HTTP collector (the spec's), used when an exporter is asked for by name without an endpoint. */
const DEFAULT_ENDPOINT = 'http://localhost:4318';
const SIGNALS = { traces: 'TRACES', metrics: 'METRICS' } as const;

/**
 * Resolves what to export following the OpenTelemetry SDK environment specification:
 * - `OTEL_SDK_DISABLED=true` turns everything off (unless `--otel` is given);
 * - a signal is exported over OTLP when an endpoint is set for it — `OTEL_EXPORTER_OTLP_<SIGNAL>_ENDPOINT`
 *   used as is, or `OTEL_EXPORTER_OTLP_ENDPOINT` plus `/v1/<signal>` — or when
 *   `OTEL_<SIGNAL>_EXPORTER=otlp` names it (then to localhost:4318); `console` writes it to
 *   standard error and `none` turns it off;
 * - `--otel <url>` exports both signals over OTLP to that base URL, winning over the environment;
 * - headers from `OTEL_EXPORTER_OTLP_HEADERS`, overridden by `OTEL_EXPORTER_OTLP_<SIGNAL>_HEADERS`.
 *
 * Nothing set: no configuration, so nothing is loaded.
 */
export function resolveOtelConfig(env: Readonly<Record<string, string | undefined>>, flags: OtelFlags = {}): OtelResolution {
  const problems: string[] = [];
  const value = (name: string): string | undefined => {
    const raw = env[name]?.trim();
    return raw === undefined || raw === '' ? undefined : raw;
  };
  if (flags.otel === undefined && value('OTEL_SDK_DISABLED')?.toLowerCase() === 'true') return { config: undefined, problems };

  const signal = (name: keyof typeof SIGNALS): SignalExport | undefined => {
    const upper = SIGNALS[name];
    const headers = {
      ...parseKeyValues(value('OTEL_EXPORTER_OTLP_HEADERS'), problems),
      ...parseKeyValues(value(`OTEL_EXPORTER_OTLP_${upper}_HEADERS`), problems),
    };
    if (flags.otel !== undefined) return { exporter: 'otlp', url: signalUrl(flags.otel, name), headers };
    const specific = value(`OTEL_EXPORTER_OTLP_${upper}_ENDPOINT`);
    const base = value('OTEL_EXPORTER_OTLP_ENDPOINT');
    const endpoint = specific ?? (base === undefined ? undefined : signalUrl(base, name));
    const exporters = (value(`OTEL_${upper}_EXPORTER`) ?? (endpoint === undefined ? 'none' : 'otlp')).split(',').map((e) => e.trim().toLowerCase());
    // One exporter per signal: the first this CLI knows (the SDK would warn about the others too).
    for (const exporter of exporters) {
      if (exporter === 'otlp') return { exporter, url: endpoint ?? signalUrl(DEFAULT_ENDPOINT, name), headers };
      if (exporter === 'console') return { exporter };
      if (exporter === 'none') return undefined;
      problems.push(`OTEL_${upper}_EXPORTER: unknown exporter "${exporter}" (use otlp, console or none)`);
    }
    return undefined;
  };

  const traces = signal('traces');
  const metrics = signal('metrics');
  if (traces === undefined && metrics === undefined) return { config: undefined, problems };
  const resourceAttributes = parseKeyValues(value('OTEL_RESOURCE_ATTRIBUTES'), problems);
  return {
    config: {
      ...(traces === undefined ? {} : { traces }),
      ...(metrics === undefined ? {} : { metrics }),
      serviceName: value('OTEL_SERVICE_NAME') ?? resourceAttributes['service.name'] ?? 'troupe',
      resourceAttributes,
      captureContent: flags.otelContent === true || value('OTEL_INSTRUMENTATION_GENAI_CAPTURE_MESSAGE_CONTENT')?.toLowerCase() === 'true',
    },
    problems,
  };
}

/** `base` with the signal's path appended (`http://host:4318` → `http://host:4318/v1/traces`). */
function signalUrl(base: string, signal: keyof typeof SIGNALS): string {
  return `${base.endsWith('/') ? base : `${base}/`}v1/${signal}`;
}

/** `k1=v1,k2=v2` with percent-encoded values (the W3C Baggage format the spec uses for headers and resource attributes). */
function parseKeyValues(text: string | undefined, problems: string[]): Record<string, string> {
  const pairs: Record<string, string> = {};
  for (const item of text?.split(',') ?? []) {
    if (item.trim() === '') continue;
    const at = item.indexOf('=');
    const key = at < 0 ? '' : item.slice(0, at).trim();
    if (key === '') {
      problems.push(`ignored "${item.trim()}": expected key=value`);
      continue;
    }
    const raw = item.slice(at + 1).trim();
    try {
      pairs[key] = decodeURIComponent(raw);
    } catch {
      pairs[key] = raw;
    }
  }
  return pairs;
}
