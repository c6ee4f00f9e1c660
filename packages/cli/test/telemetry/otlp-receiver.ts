import { createServer, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';
import { gunzipSync } from 'node:zlib';

/** A span as an OTLP/JSON export carried it, with its resource's attributes. */
export interface ReceivedSpan {
  name: string;
  traceId: string;
  spanId: string;
  /** Absent for a root span. */
  parentSpanId?: string;
  attributes: Record<string, unknown>;
  resource: Record<string, unknown>;
}

/** A metric as an OTLP/JSON export carried it. */
export interface ReceivedMetric {
  name: string;
  resource: Record<string, unknown>;
}

/** A local OTLP/HTTP collector taking the JSON encoding. */
export interface OtlpReceiver {
  /** The base URL, for OTEL_EXPORTER_OTLP_ENDPOINT or --otel. */
  readonly url: string;
  readonly spans: ReceivedSpan[];
  readonly metrics: ReceivedMetric[];
  /** The paths posted to, in order. */
  readonly paths: string[];
  close(): Promise<void>;
}

interface OtlpValue {
  stringValue?: string;
  intValue?: string | number;
  doubleValue?: number;
  boolValue?: boolean;
  arrayValue?: { values?: OtlpValue[] };
}
interface OtlpKeyValue {
  key: string;
  value: OtlpValue;
}
interface OtlpResource {
  attributes?: OtlpKeyValue[];
}
interface OtlpTraces {
  resourceSpans?: {
    resource?: OtlpResource;
    scopeSpans?: { spans?: { name: string; traceId: string; spanId: string; parentSpanId?: string; attributes?: OtlpKeyValue[] }[] }[];
  }[];
}
interface OtlpMetrics {
  resourceMetrics?: { resource?: OtlpResource; scopeMetrics?: { metrics?: { name: string }[] }[] }[];
}

/**
 * Starts a node:http server on a random loopback port that accepts `POST /v1/traces` and
 * `/v1/metrics` with OTLP/JSON bodies (gzipped or not) and keeps what they carry, decoded.
 * Anything else is answered 404.
 */
export async function startOtlpReceiver(): Promise<OtlpReceiver> {
  const spans: ReceivedSpan[] = [];
  const metrics: ReceivedMetric[] = [];
  const paths: string[] = [];
  const server = createServer((request, response) => {
    void readBody(request).then((body) => {
      const path = request.url ?? '';
      paths.push(path);
      if (request.method !== 'POST' || (path !== '/v1/traces' && path !== '/v1/metrics')) {
        response.writeHead(404).end();
        return;
      }
      if (path === '/v1/traces') {
        for (const resourceSpans of (JSON.parse(body) as OtlpTraces).resourceSpans ?? []) {
          const resource = attributesOf(resourceSpans.resource?.attributes);
          for (const scope of resourceSpans.scopeSpans ?? []) {
            for (const span of scope.spans ?? []) {
              spans.push({
                name: span.name,
                traceId: span.traceId,
                spanId: span.spanId,
                ...(span.parentSpanId === undefined || span.parentSpanId === '' ? {} : { parentSpanId: span.parentSpanId }),
                attributes: attributesOf(span.attributes),
                resource,
              });
            }
          }
        }
      } else {
        for (const resourceMetrics of (JSON.parse(body) as OtlpMetrics).resourceMetrics ?? []) {
          const resource = attributesOf(resourceMetrics.resource?.attributes);
          for (const scope of resourceMetrics.scopeMetrics ?? []) for (const metric of scope.metrics ?? []) metrics.push({ name: metric.name, resource });
        }
      }
      response.writeHead(200, { 'content-type': 'application/json' }).end('{}');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    spans,
    metrics,
    paths,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

async function readBody(request: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of request) chunks.push(chunk as Buffer);
  const raw = Buffer.concat(chunks);
  return (request.headers['content-encoding'] === 'gzip' ? gunzipSync(raw) : raw).toString('utf8');
}

function attributesOf(list: OtlpKeyValue[] | undefined): Record<string, unknown> {
  return Object.fromEntries((list ?? []).map(({ key, value }) => [key, decodeValue(value)]));
}

function decodeValue(value: OtlpValue): unknown {
  if (value.stringValue !== undefined) return value.stringValue;
  if (value.intValue !== undefined) return Number(value.intValue);
  if (value.doubleValue !== undefined) return value.doubleValue;
  if (value.boolValue !== undefined) return value.boolValue;
  return value.arrayValue?.values?.map(decodeValue);
}
