/**
 * How `troupe` reads the OpenTelemetry settings (resolveOtelConfig): nothing set means no
 * telemetry at all; a signal-specific endpoint is used as is and the base endpoint gets
 * `/v1/<signal>`; `--otel` wins over the environment; headers and resource attributes are
 * decoded; `none`, `console` and OTEL_SDK_DISABLED are honoured; content is captured only when
 * asked. And the SDK is imported by the telemetry module alone, which is imported dynamically.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { resolveOtelConfig } from '../../src/telemetry/otel-config.js';

describe('resolveOtelConfig', () => {
  it('is off when nothing asks for telemetry', () => {
    expect(resolveOtelConfig({})).toEqual({ config: undefined, problems: [] });
    expect(resolveOtelConfig({ OTEL_SERVICE_NAME: 'svc', OTEL_EXPORTER_OTLP_ENDPOINT: '' }).config).toBeUndefined();
  });

  it('appends the signal path to the base endpoint and uses a signal endpoint as is', () => {
    const { config } = resolveOtelConfig({
      OTEL_EXPORTER_OTLP_ENDPOINT: 'http://collector:4318/',
      OTEL_EXPORTER_OTLP_METRICS_ENDPOINT: 'http://metrics:9000/custom',
    });
    expect(config?.traces).toEqual({ exporter: 'otlp', url: 'http://collector:4318/v1/traces', headers: {} });
    expect(config?.metrics).toEqual({ exporter: 'otlp', url: 'http://metrics:9000/custom', headers: {} });
    expect(config?.serviceName).toBe('troupe');
    expect(config?.captureContent).toBe(false);
  });

  it('exports only the signal that has an endpoint', () => {
    const { config } = resolveOtelConfig({ OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: 'http://t:4318/v1/traces' });
    expect(config?.traces).toMatchObject({ url: 'http://t:4318/v1/traces' });
    expect(config?.metrics).toBeUndefined();
  });

  it('lets --otel win over the environment, for both signals', () => {
    const { config } = resolveOtelConfig(
      { OTEL_EXPORTER_OTLP_ENDPOINT: 'http://env:4318', OTEL_TRACES_EXPORTER: 'none', OTEL_SDK_DISABLED: 'true' },
      { otel: 'http://flag:4318' },
    );
    expect(config?.traces).toMatchObject({ exporter: 'otlp', url: 'http://flag:4318/v1/traces' });
    expect(config?.metrics).toMatchObject({ exporter: 'otlp', url: 'http://flag:4318/v1/metrics' });
  });

  it('decodes headers, with the signal-specific ones winning', () => {
    const { config, problems } = resolveOtelConfig({
      OTEL_EXPORTER_OTLP_ENDPOINT: 'http://c:4318',
      OTEL_EXPORTER_OTLP_HEADERS: 'api-key=a%20b, x-team=red,broken',
      OTEL_EXPORTER_OTLP_TRACES_HEADERS: 'x-team=blue',
    });
    expect(config?.traces).toMatchObject({ headers: { 'api-key': 'a b', 'x-team': 'blue' } });
    expect(config?.metrics).toMatchObject({ headers: { 'api-key': 'a b', 'x-team': 'red' } });
    expect(problems).toContain('ignored "broken": expected key=value');
  });

  it('names the service from OTEL_SERVICE_NAME, else the resource attributes', () => {
    const base = { OTEL_EXPORTER_OTLP_ENDPOINT: 'http://c:4318', OTEL_RESOURCE_ATTRIBUTES: 'service.name=from-attrs,team=a%2Cb' };
    expect(resolveOtelConfig(base).config).toMatchObject({ serviceName: 'from-attrs', resourceAttributes: { 'service.name': 'from-attrs', team: 'a,b' } });
    expect(resolveOtelConfig({ ...base, OTEL_SERVICE_NAME: 'svc' }).config?.serviceName).toBe('svc');
  });

  it('honours none, console, an exporter named without endpoint, and unknown exporters', () => {
    expect(resolveOtelConfig({ OTEL_EXPORTER_OTLP_ENDPOINT: 'http://c:4318', OTEL_TRACES_EXPORTER: 'none' }).config).toMatchObject({
      metrics: { exporter: 'otlp' },
    });
    expect(
      resolveOtelConfig({ OTEL_EXPORTER_OTLP_ENDPOINT: 'http://c:4318', OTEL_TRACES_EXPORTER: 'none', OTEL_METRICS_EXPORTER: 'none' }).config,
    ).toBeUndefined();
    const console = resolveOtelConfig({ OTEL_TRACES_EXPORTER: 'console' }).config;
    expect(console?.traces).toEqual({ exporter: 'console' });
    expect(console?.metrics).toBeUndefined();
    expect(resolveOtelConfig({ OTEL_METRICS_EXPORTER: 'otlp' }).config?.metrics).toMatchObject({ url: 'http://localhost:4318/v1/metrics' });
    const unknown = resolveOtelConfig({ OTEL_TRACES_EXPORTER: 'zipkin,console' });
    expect(unknown.config?.traces).toEqual({ exporter: 'console' });
    expect(unknown.problems).toEqual(['OTEL_TRACES_EXPORTER: unknown exporter "zipkin" (use otlp, console or none)']);
  });

  it('is off with OTEL_SDK_DISABLED=true', () => {
    expect(resolveOtelConfig({ OTEL_EXPORTER_OTLP_ENDPOINT: 'http://c:4318', OTEL_SDK_DISABLED: 'TRUE' }).config).toBeUndefined();
    expect(resolveOtelConfig({ OTEL_EXPORTER_OTLP_ENDPOINT: 'http://c:4318', OTEL_SDK_DISABLED: 'false' }).config).toBeDefined();
  });

  it('captures content with --otel-content or the GenAI variable', () => {
    const env = { OTEL_EXPORTER_OTLP_ENDPOINT: 'http://c:4318' };
    expect(resolveOtelConfig(env, { otelContent: true }).config?.captureContent).toBe(true);
    expect(resolveOtelConfig({ ...env, OTEL_INSTRUMENTATION_GENAI_CAPTURE_MESSAGE_CONTENT: 'True' }).config?.captureContent).toBe(true);
    expect(resolveOtelConfig({ ...env, OTEL_INSTRUMENTATION_GENAI_CAPTURE_MESSAGE_CONTENT: 'false' }).config?.captureContent).toBe(false);
  });
});

describe('loading the SDK', () => {
  it('happens only through the dynamic import of telemetry/otel-sdk.ts', () => {
    const src = fileURLToPath(new URL('../../src/', import.meta.url));
    const files = (dir: string): string[] =>
      readdirSync(dir).flatMap((name) => (statSync(join(dir, name)).isDirectory() ? files(join(dir, name)) : /\.tsx?$/.test(name) ? [join(dir, name)] : []));
    const staticImports: string[] = [];
    for (const file of files(src)) {
      const where = relative(src, file);
      for (const match of readFileSync(file, 'utf8').matchAll(/^import (?!type )[^;]*?from '([^']+)'/gm)) {
        const specifier = match[1]!;
        if (/^@opentelemetry\/|^@troupe\/otel$|otel-sdk\.js$|stderr-exporters\.js$/.test(specifier)) staticImports.push(`${where}: ${specifier}`);
      }
    }
    expect(staticImports.length).toBeGreaterThan(0);
    // Only the SDK module and what it alone imports; withTelemetry imports it with import().
    expect(staticImports.every((line) => line.startsWith('telemetry/otel-sdk.ts:') || line.startsWith('telemetry/stderr-exporters.ts:'))).toBe(true);
    expect(readFileSync(join(src, 'telemetry/with-telemetry.ts'), 'utf8')).toContain("await import('./otel-sdk.js')");
  });
});
