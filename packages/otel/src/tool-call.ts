import { SpanKind, SpanStatusCode, trace, type Attributes, type Context, type Span, type Tracer } from '@opentelemetry/api';
import type { TraceCarrier } from '@troupe/runtime';
import { INTERRUPTED_TOOL_RESULT, permissionDenied, permissionDeniedPermanently, SKIPPED_BY_STEERING, type ToolResultMessage } from '@troupe/core';
import { GenAi, Operation, SpanEvent, TroupeAttr } from './semconv.js';
import { spanTime } from './span-time.js';
import { carrierOf } from './trace-context.js';
import type { TroupeMetrics } from './troupe-metrics.js';

/** What a tool call span is opened with. */
export interface ToolCallStart {
  toolCallId: string;
  toolName: string;
  args: Record<string, unknown>;
}

/**
 * One tool call's `execute_tool` span, open while the call runs (a child it delegates to starts
 * in its context). A wait for a person — a permission request before it runs, a question it
 * asks — shows as span events, and its time is left out of the tool's own duration.
 */
export class ToolCall {
  readonly #span: Span;
  readonly #name: string;
  readonly #startedAt = spanTime();
  #waitingSince: number | undefined;
  #waitedMs = 0;

  constructor(tracer: Tracer, parent: Context, start: ToolCallStart, captureContent: boolean) {
    this.#name = start.toolName;
    // Literal keys (the names of semconv.ts): a fixed shape V8 builds fast, on every tool call.
    const attributes: Attributes = {
      'gen_ai.operation.name': 'execute_tool',
      'gen_ai.tool.name': start.toolName,
      'gen_ai.tool.call.id': start.toolCallId,
      'gen_ai.tool.type': 'function',
    };
    if (captureContent) attributes[GenAi.toolCallArguments] = JSON.stringify(start.args);
    this.#span = tracer.startSpan(`${Operation.executeTool} ${start.toolName}`, { kind: SpanKind.INTERNAL, startTime: this.#startedAt, attributes }, parent);
  }

  /** The W3C headers of this call's span, for a child it starts. */
  get carrier(): TraceCarrier | undefined {
    return carrierOf(this.#span.spanContext());
  }

  /** The context of this call's span. */
  context(parent: Context): Context {
    return trace.setSpan(parent, this.#span);
  }

  /** The call waits for a person: a permission decision (`permission`) or an answer (`question`, with its text when content is captured). */
  wait(kind: 'permission' | 'question', question?: string): void {
    const at = spanTime();
    this.#waitingSince ??= at;
    const attributes: Attributes = { [TroupeAttr.waitKind]: kind };
    if (question !== undefined) attributes[TroupeAttr.question] = question;
    this.#span.addEvent(kind === 'permission' ? SpanEvent.permissionRequest : SpanEvent.question, attributes, at);
  }

  /** The wait, if any, is over (the decision or the answer arrived). */
  resume(): void {
    if (this.#waitingSince === undefined) return;
    const at = spanTime();
    this.#waitedMs += at - this.#waitingSince;
    this.#waitingSince = undefined;
    this.#span.addEvent(SpanEvent.answered, {}, at);
  }

  /** Ends the span with `result`, or cut short (`result` undefined: aborted, or let go by its host with `setAside`). */
  end(metrics: TroupeMetrics | undefined, result: ToolResultMessage | undefined, captureContent: boolean, setAside = false): void {
    const endedAt = spanTime();
    // Set aside while waiting, the wait goes on elsewhere: no end of it to show here.
    if (setAside && this.#waitingSince !== undefined) {
      this.#waitedMs += endedAt - this.#waitingSince;
      this.#waitingSince = undefined;
    } else this.resume();
    const span = this.#span;
    if (this.#waitedMs > 0) span.setAttribute(TroupeAttr.waitMs, Math.round(this.#waitedMs));
    let error: string | undefined;
    if (result === undefined) {
      span.setAttribute(setAside ? TroupeAttr.agentSetAside : TroupeAttr.aborted, true);
    } else {
      const text = textOf(result);
      if (captureContent) span.setAttribute(GenAi.toolCallResult, text);
      const settled = settledBy(this.#name, result, text);
      if (settled === 'aborted') span.setAttribute(TroupeAttr.aborted, true);
      else if (settled === 'denied') span.setAttribute(TroupeAttr.denied, true);
      else if (settled === 'failed') {
        error = 'tool_error';
        span.setAttribute(GenAi.errorType, error);
        span.setStatus({ code: SpanStatusCode.ERROR, message: firstLine(text) });
      }
    }
    span.end(endedAt);
    if (setAside) return;
    const attributes: Attributes = { [GenAi.toolName]: this.#name, [GenAi.operationName]: Operation.executeTool };
    if (error !== undefined) attributes[GenAi.errorType] = error;
    metrics?.toolCall(attributes, Math.max(0, endedAt - this.#startedAt - this.#waitedMs) / 1000);
  }
}

/**
 * What settled a call: its own answer (`ran`, `failed`), or the user — an abort or a steering
 * message cut it (`aborted`), a permission decision refused it (`denied`). Only a tool's own
 * failure is an error of the span.
 */
function settledBy(tool: string, result: ToolResultMessage, text: string): 'ran' | 'failed' | 'aborted' | 'denied' {
  if (!result.isError) return 'ran';
  if (text === INTERRUPTED_TOOL_RESULT || text === SKIPPED_BY_STEERING) return 'aborted';
  if (text === permissionDenied(tool) || text === permissionDeniedPermanently(tool)) return 'denied';
  return 'failed';
}

function textOf(result: ToolResultMessage): string {
  return result.content.map((part) => (part.type === 'text' ? part.text : `[${part.type}]`)).join('\n');
}

function firstLine(text: string): string {
  const line = text.split('\n', 1)[0] ?? '';
  return line.length > 200 ? `${line.slice(0, 200)}…` : line;
}
