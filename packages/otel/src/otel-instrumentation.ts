import { SpanKind, SpanStatusCode, type Attributes, type Span, type SpanOptions } from '@opentelemetry/api';
import type { AgentPath, ErrorInfo, RunId } from '@troupe/core';
import type { ActorTrace, HostedActor, Instrumentation, RunTrace, StepTrace, TraceCarrier, TracedRun, TracedRunEnd, TracedStep } from '@troupe/runtime';
import { ActorSpans } from './actor-spans.js';
import type { OtelOptions } from './otel-options.js';
import { GenAi, Operation, TroupeAttr } from './semconv.js';
import { carrierOf, contextOf, spanContextOf } from './trace-context.js';
import { spanSinks, type SpanSinks } from './span-sinks.js';
import { usageAttributes } from './usage-attributes.js';

/**
 * The runtime's {@link Instrumentation} over OpenTelemetry: every run is a trace.
 * - `invoke_workflow <entry>`: the run, with its status, total usage and cost;
 * - `step <id>`: a pipeline step, inside the run;
 * - `invoke_agent <agent>`: each actor's run, inside what started it (the run, its step, or the
 *   `execute_tool` span of the delegation that spawned it — in another process too: the context
 *   travels in the spawn request);
 * - `chat <model>` and `execute_tool <tool>` inside each agent span.
 *
 * Give it to `createRuntime({ instrumentation })`.
 */
export function createOtelInstrumentation(options: OtelOptions = {}): Instrumentation {
  return new OtelInstrumentation(options);
}

class OtelInstrumentation implements Instrumentation {
  readonly #sinks: SpanSinks;
  /** The actors hosted here, per run and path, for the tool calls children start in. */
  readonly #actors = new Map<string, Map<string, ActorSpans>>();

  constructor(options: OtelOptions) {
    this.#sinks = spanSinks(options);
  }

  run(run: TracedRun): RunTrace {
    const attributes: Attributes = {
      [GenAi.operationName]: Operation.invokeWorkflow,
      [GenAi.workflowName]: run.entry,
      [GenAi.conversationId]: run.sessionId ?? run.runId,
      [TroupeAttr.runId]: run.runId,
    };
    if (run.kind === 'pipeline') attributes[TroupeAttr.pipelineName] = run.entry;
    if (run.resumed) attributes[TroupeAttr.runResumed] = true;
    // A resumed run goes on in the trace it began in, below its first span (ended by then, with
    // the process that ran it): linked too, as a span whose parent ended long before it began.
    const before = spanContextOf(run.parent);
    const options: SpanOptions = { kind: SpanKind.INTERNAL, attributes };
    if (before !== undefined) options.links = [{ context: before, attributes: { [TroupeAttr.linkKind]: 'resumed_from' } }];
    const span = this.#sinks.tracer.startSpan(`${Operation.invokeWorkflow} ${run.entry}`, options, contextOf(run.parent));
    const { metrics } = this.#sinks;
    return {
      carrier: carrierOf(span.spanContext()),
      end: (result: TracedRunEnd) => {
        span.setAttributes(usageAttributes(result.usage));
        span.setAttribute(TroupeAttr.runStatus, result.status);
        span.setAttribute(TroupeAttr.stopReason, result.stopReason);
        if (result.status === 'aborted') span.setAttribute(TroupeAttr.aborted, true);
        if (result.status === 'failed') failed(span, result.error);
        span.end();
        if (result.usage.cost.unknown !== true)
          metrics?.runCost({ [GenAi.workflowName]: run.entry, [TroupeAttr.runStatus]: result.status }, result.usage.cost.total);
      },
      leave: (status) => {
        span.setAttribute(TroupeAttr.runStatus, status);
        span.end();
      },
    };
  }

  step(step: TracedStep): StepTrace {
    const attributes: Attributes = {
      [TroupeAttr.stepId]: step.id,
      [TroupeAttr.stepKind]: step.kind,
      [TroupeAttr.runId]: step.runId,
      [TroupeAttr.agentPath]: step.path,
    };
    const span = this.#sinks.tracer.startSpan(`step ${step.id}`, { kind: SpanKind.INTERNAL, attributes }, contextOf(step.parent));
    return {
      carrier: carrierOf(span.spanContext()),
      end: (error?: ErrorInfo) => {
        if (error !== undefined) failed(span, error);
        span.end();
      },
    };
  }

  actor(actor: HostedActor): ActorTrace {
    const { request, agent } = actor;
    const spans = new ActorSpans(agent, contextOf(request.trace), this.#sinks, request.snapshot !== undefined);
    let run = this.#actors.get(request.runId);
    if (run === undefined) {
      run = new Map();
      this.#actors.set(request.runId, run);
    }
    run.set(request.path, spans);
    return {
      end: () => {
        spans.end();
        const current = this.#actors.get(request.runId);
        if (current?.get(request.path) !== spans) return;
        current.delete(request.path);
        if (current.size === 0) this.#actors.delete(request.runId);
      },
    };
  }

  carrierOf(runId: RunId, path: AgentPath, toolCallId: string): TraceCarrier | undefined {
    return this.#actors.get(runId)?.get(path)?.carrierOf(toolCallId);
  }
}

function failed(span: Span, error: ErrorInfo | undefined): void {
  span.setAttribute(GenAi.errorType, error?.code ?? 'error');
  span.setStatus({ code: SpanStatusCode.ERROR, ...(error === undefined ? {} : { message: error.message }) });
}
