import { SpanKind, SpanStatusCode, trace, type Attributes, type Context, type Span } from '@opentelemetry/api';
import { NOTICE_MODEL, type Agent, type AgentEvent, type AgentEventOf, type AgentResult } from '@troupe/core';
import type { TraceCarrier } from '@troupe/runtime';
import { ModelCall, type ModelRequest } from './model-call.js';
import { GenAi, Operation, SpanEvent, TroupeAttr } from './semconv.js';
import { ToolCall } from './tool-call.js';
import type { SpanSinks } from './span-sinks.js';
import { usageAttributes } from './usage-attributes.js';

/**
 * Follows one agent's events and writes its spans: `invoke_agent <name>` per run of the agent (in
 * the context it was started in), and inside it `chat <model>` per model call and
 * `execute_tool <tool>` per tool call. An actor restored from a snapshot mid-run (resumed, or
 * woken by an answer) goes on in a new agent span of the same trace, marked restored.
 */
export class ActorSpans {
  readonly #agent: Agent;
  readonly #parent: Context;
  readonly #sinks: SpanSinks;
  readonly #subscription: { unsubscribe(): void };
  readonly #tools = new Map<string, ToolCall>();
  #restored: boolean;
  #invoke: { span: Span; context: Context } | undefined;
  #call: ModelCall | undefined;

  constructor(agent: Agent, parent: Context, sinks: SpanSinks, restored: boolean) {
    this.#agent = agent;
    this.#parent = parent;
    this.#sinks = sinks;
    this.#restored = restored;
    this.#subscription = agent.events$.subscribe((event) => this.#on(event));
  }

  /** The W3C headers of the tool call `toolCallId` while it runs. */
  carrierOf(toolCallId: string): TraceCarrier | undefined {
    return this.#tools.get(toolCallId)?.carrier;
  }

  /** The agent is let go by its host: what is open ends here, marked set aside unless the agent had ended. */
  end(): void {
    this.#subscription.unsubscribe();
    if (this.#invoke === undefined) return;
    const { metrics, captureContent } = this.#sinks;
    for (const call of this.#tools.values()) call.end(metrics, undefined, captureContent, true);
    this.#tools.clear();
    this.#call = undefined;
    this.#invoke.span.setAttribute(TroupeAttr.agentSetAside, true);
    this.#invoke.span.end();
    this.#invoke = undefined;
  }

  #on(event: AgentEvent): void {
    if (event.type === 'agent_start') {
      this.#open(event);
      return;
    }
    // A restored actor goes on mid-run: its first event opens its span.
    const invoke = this.#invoke ?? this.#open(event);
    const { tracer, metrics, captureContent } = this.#sinks;
    switch (event.type) {
      case 'message_start':
        if (event.role === 'assistant') this.#call ??= new ModelCall(this.#request());
        return;
      case 'message_end':
        if (event.role === 'assistant') this.#modelEnded(event, invoke.context);
        else if (event.role === 'user' && captureContent && event.message !== undefined) {
          invoke.span.addEvent('gen_ai.user.message', { content: JSON.stringify(event.message.content) });
        }
        return;
      case 'retry':
        this.#call?.retry(event.attempt, event.delayMs, event.error);
        return;
      case 'permission_request':
        this.#tool(event, invoke.context).wait('permission');
        return;
      case 'tool_start':
        this.#tool(event, invoke.context).resume();
        return;
      case 'question':
        this.#tool(event, invoke.context).wait('question', captureContent ? event.question : undefined);
        return;
      case 'tool_end': {
        const call = this.#tools.get(event.toolCallId) ?? new ToolCall(tracer, invoke.context, { ...event, args: {} }, false);
        this.#tools.delete(event.toolCallId);
        call.end(metrics, event.result, captureContent);
        return;
      }
      case 'compaction':
        invoke.span.addEvent(SpanEvent.compaction, {
          [TroupeAttr.compactionReason]: event.reason,
          [TroupeAttr.compactionStrategy]: event.strategy,
          [TroupeAttr.compactionTokensBefore]: event.tokensBefore,
          [TroupeAttr.compactionTokensAfter]: event.tokensAfter,
          [TroupeAttr.compactionRemovedMessages]: event.removedMessages,
        });
        return;
      case 'error':
        invoke.span.recordException({ name: event.error.code, message: event.error.message });
        return;
      case 'turn_end':
        // A call the turn ended without a reply (aborted, or cut by a limit) ends with it.
        this.#cutCall(invoke.context);
        return;
      case 'agent_end':
        this.#close(event.result);
        return;
      default:
        return;
    }
  }

  /** Opens the span of a run of the agent. */
  #open(event: AgentEvent): { span: Span; context: Context } {
    if (this.#invoke !== undefined) this.#close(undefined);
    const agent = this.#agent;
    const settings = agent.modelSettings;
    const attributes: Attributes = {
      [GenAi.operationName]: Operation.invokeAgent,
      [GenAi.agentName]: agent.name,
      [GenAi.agentId]: agent.path,
      [GenAi.conversationId]: event.type === 'agent_start' ? event.sessionId : agent.sessionId || event.runId,
      [GenAi.providerName]: settings.provider.name,
      [GenAi.requestModel]: settings.model,
      [TroupeAttr.runId]: event.runId,
      [TroupeAttr.agentPath]: agent.path,
    };
    if (this.#sinks.hostId !== undefined) attributes[TroupeAttr.hostId] = this.#sinks.hostId;
    if (this.#restored) attributes[TroupeAttr.agentRestored] = true;
    this.#restored = false;
    const span = this.#sinks.tracer.startSpan(`${Operation.invokeAgent} ${agent.name}`, { kind: SpanKind.INTERNAL, attributes }, this.#parent);
    this.#invoke = { span, context: trace.setSpan(this.#parent, span) };
    return this.#invoke;
  }

  /** Ends the run's span with its result (undefined: a new run began before this one's end was seen). */
  #close(result: AgentResult | undefined): void {
    const invoke = this.#invoke;
    if (invoke === undefined) return;
    this.#cutCall(invoke.context);
    const { metrics, captureContent } = this.#sinks;
    for (const call of this.#tools.values()) call.end(metrics, undefined, captureContent);
    this.#tools.clear();
    const { span } = invoke;
    if (result !== undefined) {
      span.setAttributes(usageAttributes(result.usage));
      span.setAttribute(TroupeAttr.stopReason, result.stopReason);
      span.setAttribute(TroupeAttr.agentTurns, result.turns);
      if (captureContent) span.setAttribute(GenAi.outputMessages, JSON.stringify([{ role: 'assistant', parts: [{ type: 'text', content: result.text }] }]));
      if (result.stopReason === 'aborted') span.setAttribute(TroupeAttr.aborted, true);
      if (result.stopReason === 'error') {
        span.setAttribute(GenAi.errorType, result.error?.code ?? 'error');
        span.setStatus({ code: SpanStatusCode.ERROR, message: result.error?.message ?? 'the agent failed' });
      }
    }
    span.end();
    this.#invoke = undefined;
  }

  #modelEnded(event: AgentEventOf<'message_end'>, parent: Context): void {
    const call = this.#call;
    if (call === undefined) return;
    if (event.failed !== undefined) {
      call.failed(event.failed);
      return;
    }
    const message = event.message?.role === 'assistant' ? event.message : undefined;
    this.#call = undefined;
    // A limit's notice streams like a reply, but no model was called for it.
    if (message?.model === NOTICE_MODEL && !call.called) return;
    call.end(this.#sinks.tracer, parent, this.#sinks.metrics, message, this.#sinks.captureContent);
  }

  #cutCall(parent: Context): void {
    const call = this.#call;
    this.#call = undefined;
    if (call !== undefined) call.end(this.#sinks.tracer, parent, this.#sinks.metrics, undefined, this.#sinks.captureContent);
  }

  /** The span of the tool call `event` names, opened at its first sign (a permission request comes before it runs). */
  #tool(event: { toolCallId: string; toolName: string; args?: Record<string, unknown> }, parent: Context): ToolCall {
    let call = this.#tools.get(event.toolCallId);
    if (call === undefined) {
      call = new ToolCall(
        this.#sinks.tracer,
        parent,
        { toolCallId: event.toolCallId, toolName: event.toolName, args: event.args ?? {} },
        this.#sinks.captureContent,
      );
      this.#tools.set(event.toolCallId, call);
    }
    return call;
  }

  #request(): ModelRequest {
    const settings = this.#agent.modelSettings;
    const request: ModelRequest = { provider: settings.provider.name, model: settings.model };
    if (settings.maxTokens !== undefined) request.maxTokens = settings.maxTokens;
    if (settings.temperature !== undefined) request.temperature = settings.temperature;
    if (settings.topP !== undefined) request.topP = settings.topP;
    return request;
  }
}
