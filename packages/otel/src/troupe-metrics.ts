import type { Attributes, Histogram, Meter } from '@opentelemetry/api';
import type { Usage } from '@troupe/core';
import { GenAi, Metric } from './semconv.js';
import { inputTokens } from './usage-attributes.js';

// Bucket boundaries the GenAI conventions advise for their two client metrics.
const DURATION_BUCKETS = [0.01, 0.02, 0.04, 0.08, 0.16, 0.32, 0.64, 1.28, 2.56, 5.12, 10.24, 20.48, 40.96, 81.92];
const TOKEN_BUCKETS = [1, 4, 16, 64, 256, 1024, 4096, 16384, 65536, 262144, 1048576, 4194304, 16777216, 67108864];

/** The histograms and counters Troupe records: model calls' tokens and durations, tool calls' durations, runs' cost. */
export class TroupeMetrics {
  readonly #tokens: Histogram;
  readonly #operation: Histogram;
  readonly #tool: Histogram;
  readonly #cost: Histogram;

  constructor(meter: Meter) {
    this.#tokens = meter.createHistogram(Metric.tokenUsage, {
      description: 'Tokens used per model call, by token type.',
      unit: '{token}',
      advice: { explicitBucketBoundaries: TOKEN_BUCKETS },
    });
    this.#operation = meter.createHistogram(Metric.operationDuration, {
      description: 'Duration of model calls, retries included.',
      unit: 's',
      advice: { explicitBucketBoundaries: DURATION_BUCKETS },
    });
    this.#tool = meter.createHistogram(Metric.toolDuration, {
      description: 'Duration of tool calls, without the time spent waiting for a person.',
      unit: 's',
      advice: { explicitBucketBoundaries: DURATION_BUCKETS },
    });
    this.#cost = meter.createHistogram(Metric.runCost, { description: 'Cost of each run, over all of its actors, in US dollars.', unit: 'USD' });
  }

  /** A model call ended after `seconds`; `usage` is what it used (none when it failed). */
  modelCall(attributes: Attributes, seconds: number, usage: Usage | undefined): void {
    this.#operation.record(seconds, attributes);
    if (usage === undefined) return;
    const { [GenAi.errorType]: _error, ...base } = attributes;
    this.#tokens.record(inputTokens(usage), { ...base, [GenAi.tokenType]: 'input' });
    this.#tokens.record(usage.output, { ...base, [GenAi.tokenType]: 'output' });
  }

  /** A tool call ended after `seconds` of its own time. */
  toolCall(attributes: Attributes, seconds: number): void {
    this.#tool.record(seconds, attributes);
  }

  /** A run ended having cost `usd` (unknown prices leave it out). */
  runCost(attributes: Attributes, usd: number): void {
    this.#cost.record(usd, attributes);
  }
}
