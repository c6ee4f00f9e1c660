import { SpanKind, SpanStatusCode, type Attributes, type Context, type Tracer } from '@opentelemetry/api';
import type { AssistantMessage, ErrorInfo, ProviderFailure } from '@troupe/core';
import { GenAi, Operation, SpanEvent, TroupeAttr } from './semconv.js';
import { spanTime } from './span-time.js';
import type { TroupeMetrics } from './troupe-metrics.js';
import { addUsageDetails, inputTokens } from './usage-attributes.js';

/** What a model call span says of the model before it answers: the agent's provider and model settings. */
export interface ModelRequest {
  provider: string;
  model: string;
  maxTokens?: number;
  temperature?: number;
  topP?: number;
}

interface Retry {
  at: number;
  attempt: number;
  delayMs: number;
  error: ProviderFailure;
}

/**
 * One logical model call of a turn, retries included (the conventions' `chat` span covers them
 * all). Its span is written when the call ends, from the times noted meanwhile: only then is it
 * known to have been a model call at all (a limit's notice streams like a reply but calls no
 * model), so nothing is left open for one that never was.
 */
export class ModelCall {
  readonly #startedAt = spanTime();
  readonly #request: ModelRequest;
  readonly #retries: Retry[] = [];
  #failure: ErrorInfo | undefined;
  #attempts = 1;

  constructor(request: ModelRequest) {
    this.#request = request;
  }

  /** An attempt failed (the stream said so). */
  failed(error: ErrorInfo): void {
    this.#failure = error;
  }

  /** The agent will try again after `delayMs`. */
  retry(attempt: number, delayMs: number, error: ProviderFailure): void {
    this.#retries.push({ at: spanTime(), attempt, delayMs, error });
    this.#attempts = attempt + 1;
  }

  /** Whether an attempt failed: a model was called even if no reply came. */
  get called(): boolean {
    return this.#failure !== undefined || this.#retries.length > 0;
  }

  /**
   * Writes the span: ended by `message` (a reply, or the record of a failure), or cut short
   * (`message` undefined: the run was aborted or stopped mid-call).
   */
  end(tracer: Tracer, parent: Context, metrics: TroupeMetrics | undefined, message: AssistantMessage | undefined, captureContent: boolean): void {
    const { provider, model, maxTokens, temperature, topP } = this.#request;
    // Built once, every attribute known by now, so the span checks them once. Literal keys (the
    // names of semconv.ts) let V8 build the object from a fixed shape: this runs on every turn.
    const attributes: Attributes =
      message === undefined
        ? { 'gen_ai.operation.name': 'chat', 'gen_ai.provider.name': provider, 'gen_ai.request.model': model, 'troupe.aborted': true }
        : {
            'gen_ai.operation.name': 'chat',
            'gen_ai.provider.name': provider,
            'gen_ai.request.model': model,
            'gen_ai.response.model': modelName(message.model),
            'gen_ai.response.finish_reasons': [finishReason(message)],
            'gen_ai.usage.input_tokens': inputTokens(message.usage),
            'gen_ai.usage.output_tokens': message.usage.output,
          };
    if (message !== undefined) addUsageDetails(attributes, message.usage);
    if (maxTokens !== undefined) attributes[GenAi.requestMaxTokens] = maxTokens;
    if (temperature !== undefined) attributes[GenAi.requestTemperature] = temperature;
    if (topP !== undefined) attributes[GenAi.requestTopP] = topP;
    if (this.#attempts > 1) attributes[TroupeAttr.attempts] = this.#attempts;
    let error: string | undefined;
    if (message !== undefined) {
      if (captureContent) attributes[GenAi.outputMessages] = JSON.stringify([outputMessage(message)]);
      if (message.stopReason === 'error') error = this.#failure?.code ?? 'provider_error';
      else if (message.stopReason === 'aborted') attributes[TroupeAttr.aborted] = true;
    }
    if (error !== undefined) attributes[GenAi.errorType] = error;
    const span = tracer.startSpan(`${Operation.chat} ${model}`, { kind: SpanKind.CLIENT, startTime: this.#startedAt, attributes }, parent);
    for (const retry of this.#retries) {
      span.addEvent(
        SpanEvent.retry,
        {
          [TroupeAttr.retryAttempt]: retry.attempt,
          [TroupeAttr.retryDelayMs]: retry.delayMs,
          [GenAi.errorType]: retry.error.kind,
          'exception.message': retry.error.message,
        },
        retry.at,
      );
    }
    if (error !== undefined) span.setStatus({ code: SpanStatusCode.ERROR, message: message?.errorMessage ?? this.#failure?.message ?? error });
    const endedAt = spanTime();
    span.end(endedAt);
    if (metrics === undefined) return;
    const base: Attributes = { 'gen_ai.operation.name': 'chat', 'gen_ai.provider.name': provider, 'gen_ai.request.model': model };
    if (error !== undefined) base[GenAi.errorType] = error;
    metrics.modelCall(base, (endedAt - this.#startedAt) / 1000, message?.stopReason === 'error' ? undefined : message?.usage);
  }
}

/** The model part of a `provider:model` name. */
function modelName(name: string): string {
  const colon = name.indexOf(':');
  return colon < 0 ? name : name.slice(colon + 1);
}

/** The conventions' finish reason for a reply's stop reason. */
function finishReason(message: AssistantMessage): string {
  switch (message.stopReason) {
    case 'toolUse':
      return 'tool_call';
    case 'refusal':
      return 'content_filter';
    default:
      return message.stopReason;
  }
}

/** A reply as the conventions' output message (text, thinking and tool call parts). */
function outputMessage(message: AssistantMessage): unknown {
  const parts = message.content.map((part) => {
    if (part.type === 'text') return { type: 'text', content: part.text };
    if (part.type === 'thinking') return { type: 'reasoning', content: part.thinking };
    return { type: 'tool_call', id: part.id, name: part.name, arguments: part.arguments };
  });
  return { role: 'assistant', parts, finish_reason: finishReason(message) };
}
