/** With a meter, a run records the GenAI client metrics, the tools' own durations and the run's cost. */
import { AggregationTemporality, DataPointType, MeterProvider, MetricReader, type Histogram } from '@opentelemetry/sdk-metrics';
import { createRuntime } from '@troupe/runtime';
import { testGraph } from '@troupe/runtime/testing';
import { describe, expect, it } from 'vitest';
import { createOtelInstrumentation } from '../src/index.js';
import { captureSpans } from './span-capture.js';

/** A reader the test collects from on demand. */
class TestReader extends MetricReader {
  constructor() {
    super({ aggregationTemporalitySelector: () => AggregationTemporality.CUMULATIVE });
  }
  protected override onForceFlush(): Promise<void> {
    return Promise.resolve();
  }
  protected override onShutdown(): Promise<void> {
    return Promise.resolve();
  }
}

describe('metrics', () => {
  it('records tokens and durations per model call, tool durations and the run cost', async () => {
    const graph = testGraph({
      lead: {
        tools: ['echo'],
        script: [
          { toolCalls: [{ name: 'echo', arguments: { text: 'x' } }], usage: { input: 100, output: 20, cacheRead: 50 }, cost: 0.25 },
          { text: 'done', usage: { input: 120, output: 10 }, cost: 0.5 },
        ],
      },
    });
    const reader = new TestReader();
    const meter = new MeterProvider({ readers: [reader] }).getMeter('test');
    const runtime = createRuntime({ graph, instrumentation: createOtelInstrumentation({ tracer: captureSpans().tracer, meter }) });
    expect((await runtime.run('go').result).status).toBe('done');
    await runtime.close();
    const { resourceMetrics } = await reader.collect();
    const metrics = new Map(resourceMetrics.scopeMetrics.flatMap((scope) => scope.metrics).map((metric) => [metric.descriptor.name, metric]));
    const points = (name: string) => {
      const metric = metrics.get(name);
      expect(metric?.dataPointType).toBe(DataPointType.HISTOGRAM);
      return (metric?.dataPoints ?? []).map((point) => ({ attributes: point.attributes, value: point.value as Histogram }));
    };
    const tokens = points('gen_ai.client.token.usage');
    const input = tokens.find((point) => point.attributes['gen_ai.token.type'] === 'input');
    const output = tokens.find((point) => point.attributes['gen_ai.token.type'] === 'output');
    expect(input?.attributes).toMatchObject({ 'gen_ai.operation.name': 'chat', 'gen_ai.provider.name': 'scripted', 'gen_ai.request.model': 'lead' });
    expect(input?.value).toMatchObject({ count: 2, sum: 270 });
    expect(output?.value).toMatchObject({ count: 2, sum: 30 });
    expect(points('gen_ai.client.operation.duration')[0]?.value.count).toBe(2);
    expect(points('gen_ai.execute_tool.duration')).toEqual([
      { attributes: { 'gen_ai.tool.name': 'echo', 'gen_ai.operation.name': 'execute_tool' }, value: expect.objectContaining({ count: 1 }) },
    ]);
    const cost = points('troupe.run.cost');
    expect(cost[0]?.attributes).toEqual({ 'gen_ai.workflow.name': 'lead', 'troupe.run.status': 'done' });
    expect(cost[0]?.value.sum).toBeCloseTo(0.75);
  });
});
