/** An in-memory tracer for the tests: the spans a run wrote, and the tree they make. */
import { BasicTracerProvider, InMemorySpanExporter, SimpleSpanProcessor, type ReadableSpan } from '@opentelemetry/sdk-trace-base';
import type { Tracer } from '@opentelemetry/api';

export interface SpanCapture {
  tracer: Tracer;
  /** Every ended span, in the order they ended. */
  spans(): ReadableSpan[];
  /** The ended spans as an indented tree of names (children in start order), one line each. */
  tree(): string[];
  /** The one ended span named `name` (throws when there is none or more than one). */
  one(name: string): ReadableSpan;
  /** The span `span` is a child of, among the ended ones. */
  parentOf(span: ReadableSpan): ReadableSpan | undefined;
}

export function captureSpans(): SpanCapture {
  const exporter = new InMemorySpanExporter();
  const provider = new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] });
  const spans = (): ReadableSpan[] => exporter.getFinishedSpans();
  const byId = (): Map<string, ReadableSpan> => new Map(spans().map((span) => [span.spanContext().spanId, span]));
  const start = (span: ReadableSpan): number => span.startTime[0] * 1e9 + span.startTime[1];
  return {
    tracer: provider.getTracer('test'),
    spans,
    tree: () => {
      const all = byId();
      const children = new Map<string | undefined, ReadableSpan[]>();
      for (const span of all.values()) {
        const parent = span.parentSpanContext?.spanId;
        const key = parent !== undefined && all.has(parent) ? parent : undefined;
        children.set(key, [...(children.get(key) ?? []), span]);
      }
      const lines: string[] = [];
      const walk = (parent: string | undefined, depth: number): void => {
        const list = (children.get(parent) ?? []).sort((a, b) => start(a) - start(b) || a.name.localeCompare(b.name));
        for (const span of list) {
          lines.push(`${'  '.repeat(depth)}${span.name}`);
          walk(span.spanContext().spanId, depth + 1);
        }
      };
      walk(undefined, 0);
      return lines;
    },
    one: (name) => {
      const found = spans().filter((span) => span.name === name);
      if (found.length !== 1)
        throw new Error(
          `expected one span ${name}, found ${found.length}: ${spans()
            .map((s) => s.name)
            .join(', ')}`,
        );
      return found[0] as ReadableSpan;
    },
    parentOf: (span) => {
      const parent = span.parentSpanContext?.spanId;
      return parent === undefined ? undefined : byId().get(parent);
    },
  };
}
