import type { Agent } from '@troupe/core';
import type { TraceCarrier } from '@troupe/runtime';
import { ActorSpans } from './actor-spans.js';
import type { OtelOptions } from './otel-options.js';
import { spanSinks } from './span-sinks.js';
import { contextOf } from './trace-context.js';

/** A bare agent followed by {@link instrument}. */
export interface InstrumentedAgent {
  /** The W3C headers of the agent's tool call `toolCallId` while it runs (to start work elsewhere inside it). */
  carrierOf(toolCallId: string): TraceCarrier | undefined;
  /** Stops following the agent; what is open ends. */
  stop(): void;
}

/**
 * Traces an {@link Agent} used on its own, without a runtime: each of its runs is an
 * `invoke_agent` span (inside the caller's active span, or `parent` when given) with its `chat`
 * and `execute_tool` spans. For a runtime's agents, give `createOtelInstrumentation()` to
 * `createRuntime` instead.
 */
export function instrument(agent: Agent, options: OtelOptions & { parent?: TraceCarrier } = {}): InstrumentedAgent {
  const spans = new ActorSpans(agent, contextOf(options.parent), spanSinks(options), false);
  return { carrierOf: (toolCallId) => spans.carrierOf(toolCallId), stop: () => spans.end() };
}
