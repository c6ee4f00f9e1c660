import type { AgentHooks } from './agent-hooks.js';
import type { AgentPort } from './agent-port.js';
import type { Clock, TimerHandle } from './clock.js';
import { runCascade, type CompactionSettings } from './compaction/compaction-cascade.js';
import type { CompactionReason } from './compaction/compaction-strategy.js';
import { contextTokens, toContextView, viewMessages, type ContextView } from './compaction/context-view.js';
import { messagesTokens, requestOverheadTokens } from './compaction/token-estimate.js';
import { ErrorCode } from './errors.js';
import { HistoryViews } from './history-view.js';
import { LazyAbort } from './lazy-abort.js';
import { withFields } from './with-fields.js';
import { STREAM_ABORTED } from './interrupts.js';
import type { AgentMachineEvent } from './machine-types.js';
import { inModelContext, textOf, toLlmMessages, type AssistantMessage, type LlmMessage, type Message } from './messages.js';
import type { JsonOutcome } from './structured-output.js';
import type { Provider, ProviderEvent, ProviderFailure, ProviderRequest, ToolDefinition } from './provider.js';
import { StreamingMessageBuilder, type StreamingMessage } from './streaming-message.js';
import { addUsage, emptyUsage, type Usage } from './usage.js';
import type { ToolSet } from './tool-set.js';
import type { RetryStrategy } from './retry-strategy.js';
import { closeEvents } from './close-events.js';
import { modelNameOf } from './model-name.js';
import { NO_PATH, NO_RUN, NO_TS } from './unstamped-event.js';

/** What the model effect needs. */
export interface ModelEffectDeps {
  provider: Provider;
  /** The request minus its messages and tools: model, system prompt, thinking, limits. */
  request: Omit<ProviderRequest, 'messages' | 'tools'>;
  /** With an output schema: checks the text of a reply without tool calls (see `MODEL.DONE`'s `output`). */
  checkOutput?: (text: string) => JsonOutcome;
  /** The tools, read at each call. */
  tools: ToolSet;
  retry: RetryStrategy;
  compaction: CompactionSettings;
  /**
   * Context window in tokens. A request estimated over the compaction threshold is compacted
   * first; one estimated past the window (with `maxTokens` of reply) is reported as an overflow.
   */
  contextWindow?: number;
  hooks: AgentHooks;
  /** Times the step delay. */
  clock: Clock;
  /** The agent: its time, events and statechart. */
  port: AgentPort;
}

/** What a model call or a compaction reads of the agent's context. */
export interface ModelContext {
  /** The whole history (live: read it now, it grows). */
  history: readonly Message[];
  view: ContextView | undefined;
}

interface InFlight {
  request: number;
  /** The call's options: its abort signal is made only if the provider (or a hook) reads it. */
  abort: LazyAbort;
  streaming: boolean;
  /** The step delay's timer, while the call waits for it. */
  timer?: TimerHandle;
  /** The reply so far, once it streams. */
  partial?: StreamingMessageBuilder;
}

/**
 * The long-lived effect that carries out the machine's `cmd.model` and `cmd.compact` requests:
 * one model call (or compaction) at a time, streamed deltas emitted straight to the event sink
 * (per-token work stays O(1): the delta is forwarded, never the partial message), the outcome
 * sent back to the machine as one event.
 */
export class ModelEffect {
  readonly #deps: ModelEffectDeps;
  readonly #views: HistoryViews;
  #current: InFlight | undefined;
  /** `provider:model`, as a finished message names its model: made when they are set, not per call. */
  #modelName: string;

  constructor(deps: ModelEffectDeps) {
    this.#deps = { ...deps };
    this.#modelName = modelNameOf(deps.provider, deps.request.model);
    // With convertToLlm, custom messages stay in each call's view for the hook to convert.
    this.#views = new HistoryViews(deps.hooks.convertToLlm === undefined ? inModelContext : (m) => m.role === 'custom' || inModelContext(m));
  }

  /** Calls `provider` with `request` from the next call on (between runs: `Agent.configure`). */
  reconfigure(provider: Provider, request: Omit<ProviderRequest, 'messages' | 'tools'>): void {
    this.#deps.provider = provider;
    this.#deps.request = request;
    this.#modelName = modelNameOf(provider, request.model);
  }

  /** The reply being streamed, if one is. */
  get streaming(): StreamingMessage | undefined {
    return this.#current?.partial?.message;
  }

  /**
   * Starts a model call for `request` (`compacted`: the turn compacted already), after `delayMs`
   * on the clock when given; the previous one, if any, must have been cancelled.
   */
  call(request: number, attempt: number, context: ModelContext, compacted: boolean, delayMs = 0): void {
    const flight: InFlight = { request, abort: new LazyAbort(), streaming: false };
    this.#current = flight;
    if (delayMs <= 0) {
      this.#begin(flight, attempt, context, compacted);
      return;
    }
    flight.timer = this.#deps.clock.setTimeout(() => {
      flight.timer = undefined;
      if (this.#isCurrent(flight)) this.#begin(flight, attempt, context, compacted);
    }, delayMs);
  }

  /**
   * Starts the call. Not an async function: one made a promise, a frame and a `.catch` reaction per
   * model call that lived until a later microtask (with thousands of runs starting at once, long
   * enough to be promoted to the old generation). What throws fails the call a microtask later, as
   * the async function's rejection did.
   */
  #begin(flight: InFlight, attempt: number, context: ModelContext, compacted: boolean): void {
    try {
      this.#stream(flight, attempt, context, compacted);
    } catch (error) {
      void Promise.resolve().then(() => this.#fail(flight, attempt, internalFailure('model call failed', error)));
    }
  }

  /** Runs the compaction cascade over what the model would be sent now. */
  compact(request: number, reason: CompactionReason, context: ModelContext): void {
    const flight: InFlight = { request, abort: new LazyAbort(), streaming: false };
    this.#current = flight;
    this.#compact(flight, reason, context).catch((error: unknown) => this.#fail(flight, 0, internalFailure('compaction failed', error)));
  }

  /** Aborts the call for `request`. A reply that had started streaming is closed as failed. */
  cancel(request: number): void {
    const flight = this.#current;
    if (flight === undefined || flight.request !== request) return;
    this.#current = undefined;
    if (flight.timer !== undefined) this.#deps.clock.clearTimeout(flight.timer);
    flight.abort.abort();
    if (flight.streaming)
      this.#deps.port.emit({
        type: 'message_end',
        role: 'assistant',
        failed: { code: ErrorCode.Aborted, message: STREAM_ABORTED },
        runId: NO_RUN,
        agentPath: NO_PATH,
        seq: 0,
        ts: NO_TS,
      });
  }

  #isCurrent(flight: InFlight): boolean {
    return this.#current === flight;
  }

  #stream(flight: InFlight, attempt: number, context: ModelContext, compacted: boolean): void {
    const { hooks, port } = this.#deps;
    const tools = this.#deps.tools.current().definitions;
    const window = this.#deps.contextWindow;
    if (window !== undefined) {
      const needed = contextTokens(context.history, context.view, requestOverheadTokens(withFields(this.#deps.request, { tools })));
      const { strategies } = this.#deps.compaction;
      if (!compacted && strategies.length > 0 && needed > this.#threshold(window)) {
        this.#current = undefined;
        port.send({ type: 'MODEL.COMPACT', request: flight.request, at: port.now() });
        return;
      }
      const withReply = needed + (this.#deps.request.maxTokens ?? 0);
      if (withReply > window) {
        this.#fail(flight, attempt, {
          kind: 'overflow',
          message: `the request needs about ${withReply} tokens with its reply, over the context window of ${window}`,
          retryable: false,
        });
        return;
      }
    }
    // A fixed-length view without the messages that are not sent (failed, aborted, refused replies).
    const messages = this.#views.of(viewMessages(context.history, context.view));
    const transform = hooks.transformContext;
    if (transform === undefined) this.#send(flight, attempt, messages, tools);
    else
      void this.#transformed(flight, attempt, context, transform, messages, tools).catch((error: unknown) =>
        this.#fail(flight, attempt, internalFailure('model call failed', error)),
      );
  }

  /** Sends the call once the `transformContext` hook has changed what the model sees. */
  async #transformed(
    flight: InFlight,
    attempt: number,
    context: ModelContext,
    transform: NonNullable<AgentHooks['transformContext']>,
    view: readonly Message[],
    tools: readonly ToolDefinition[],
  ): Promise<void> {
    let messages: readonly Message[];
    try {
      const signal = flight.abort.signal;
      const options = context.view === undefined ? { signal } : { signal, compaction: context.view.compaction };
      messages = await transform(view, options);
    } catch (error) {
      this.#fail(flight, attempt, internalFailure('transformContext hook failed', error));
      return;
    }
    if (this.#isCurrent(flight)) this.#send(flight, attempt, messages, tools);
  }

  /** Converts `messages` for the model (with `convertToLlm`) and streams the reply. */
  #send(flight: InFlight, attempt: number, messages: readonly Message[], tools: readonly ToolDefinition[]): void {
    const { provider, hooks } = this.#deps;
    let llm: readonly LlmMessage[];
    try {
      // Without these hooks the view already leaves custom messages out: no pass over the history.
      llm =
        hooks.transformContext === undefined && hooks.convertToLlm === undefined
          ? (messages as readonly LlmMessage[])
          : toLlmMessages(messages, hooks.convertToLlm);
    } catch (error) {
      this.#fail(flight, attempt, internalFailure('convertToLlm hook failed', error));
      return;
    }
    const request: ProviderRequest = withFields(this.#deps.request, { tools, messages: llm });
    this.#pump(flight, attempt, provider.stream(request, flight.abort)[Symbol.asyncIterator]());
  }

  /**
   * Reads the reply's events as `for await` would (the iterator is closed when the call stops
   * reading it early; a throw while handling an event fails the call once it is closed), with
   * one reaction per event: an `await` per event made two closures and a context each, a good
   * part of what a turn allocated.
   */
  #pump(flight: InFlight, attempt: number, events: AsyncIterator<ProviderEvent>): void {
    const failed = (error: unknown): void => this.#fail(flight, attempt, internalFailure('model call failed', error));
    const next = (): void => {
      try {
        Promise.resolve(events.next()).then(heard, failed);
      } catch (error) {
        failed(error);
      }
    };
    const heard = (result: IteratorResult<ProviderEvent>): void => {
      let more: boolean;
      try {
        if (result.done === true) {
          if (this.#isCurrent(flight)) this.#fail(flight, attempt, { kind: 'api', message: 'the provider stream ended without a result', retryable: true });
          return;
        }
        more = this.#onReply(flight, attempt, result.value);
      } catch (error) {
        if (result.done === true) failed(error);
        else void closeEvents(events).then(() => failed(error));
        return;
      }
      if (more) next();
      else void closeEvents(events);
    };
    next();
  }

  /** Handles one event of the reply; whether to read on. */
  #onReply(flight: InFlight, attempt: number, event: ProviderEvent): boolean {
    if (!this.#isCurrent(flight)) return false;
    const { port } = this.#deps;
    switch (event.type) {
      case 'start':
        this.#start(flight, attempt);
        return true;
      case 'done':
        this.#start(flight, attempt);
        this.#current = undefined;
        port.emit({ type: 'message_end', role: 'assistant', message: event.message, runId: NO_RUN, agentPath: NO_PATH, seq: 0, ts: NO_TS });
        port.send(this.#done(flight.request, event.message));
        return false;
      case 'error':
        this.#fail(flight, attempt, event.error);
        return false;
      default:
        if (!flight.streaming) this.#start(flight, attempt);
        flight.partial?.apply(event);
        port.emit({ type: 'message_update', delta: event, runId: NO_RUN, agentPath: NO_PATH, seq: 0, ts: NO_TS });
        return true;
    }
  }

  /** The tokens a request may take before it is compacted: the threshold of the window, leaving room for the reply. */
  #threshold(window: number): number {
    return Math.min(window * this.#deps.compaction.threshold, window - (this.#deps.request.maxTokens ?? 0));
  }

  async #compact(flight: InFlight, reason: CompactionReason, context: ModelContext): Promise<void> {
    const { history, view } = context;
    const { provider, request, port } = this.#deps;
    const overhead = requestOverheadTokens(withFields(request, { tools: this.#deps.tools.current().definitions }));
    const before = viewMessages(history, view);
    const tokensBefore = contextTokens(history, view, overhead);
    const window = this.#deps.contextWindow;
    // After an overflow the estimate was wrong or the window is unknown: aim for half of it, at most.
    let target = window === undefined ? Infinity : this.#threshold(window);
    if (reason === 'overflow') target = Math.min(target, tokensBefore / 2);
    let usage: Usage | undefined;
    const outcome = await runCascade(before, this.#deps.compaction.strategies, {
      signal: flight.abort.signal,
      targetTokens: Math.max(0, target - overhead),
      estimate: (messages) => messagesTokens(messages),
      provider,
      model: request.model,
      addUsage: (more) => (usage = addUsage(usage ?? emptyUsage(), more)),
    });
    if (!this.#isCurrent(flight)) return;
    this.#current = undefined;
    for (const { strategy, message } of outcome.failed)
      port.emit({
        type: 'error',
        error: { code: ErrorCode.CompactionFailed, message: `compaction step ${strategy} failed: ${message}` },
        runId: NO_RUN,
        agentPath: NO_PATH,
        seq: 0,
        ts: NO_TS,
      });
    const after = outcome.messages;
    const changed = after.length !== before.length || after.some((message, i) => message !== before[i]);
    const tokensAfter = changed ? overhead + messagesTokens(after) : tokensBefore;
    const info = { reason, strategy: outcome.applied.at(-1) ?? 'none', strategies: outcome.applied, tokensBefore, tokensAfter };
    const next = toContextView(history, view, before, after, tokensAfter, info);
    const event: AgentMachineEvent = { type: 'COMPACTED', request: flight.request, compaction: next.compaction, at: port.now() };
    if (changed) event.view = next;
    if (usage !== undefined) event.usage = usage;
    port.send(event);
  }

  /** `MODEL.DONE` for `message`, with the output check of a reply that may be the final answer. */
  #done(request: number, message: AssistantMessage): AgentMachineEvent {
    const event: AgentMachineEvent = { type: 'MODEL.DONE', request, message, at: this.#deps.port.now() };
    const check = this.#deps.checkOutput;
    if (
      check !== undefined &&
      (message.stopReason === 'stop' || message.stopReason === 'length') &&
      !message.content.some((part) => part.type === 'toolCall')
    ) {
      event.output = check(textOf(message));
    }
    return event;
  }

  #start(flight: InFlight, attempt: number): void {
    if (flight.streaming) return;
    flight.streaming = true;
    flight.partial = new StreamingMessageBuilder(this.#modelName, this.#deps.port.now());
    this.#deps.port.emit(
      attempt === 0
        ? { type: 'message_start', role: 'assistant', runId: NO_RUN, agentPath: NO_PATH, seq: 0, ts: NO_TS }
        : { type: 'message_start', role: 'assistant', attempt, runId: NO_RUN, agentPath: NO_PATH, seq: 0, ts: NO_TS },
    );
  }

  #fail(flight: InFlight, attempt: number, error: ProviderFailure): void {
    if (!this.#isCurrent(flight)) return;
    this.#current = undefined;
    const { port, retry } = this.#deps;
    if (flight.streaming)
      port.emit({
        type: 'message_end',
        role: 'assistant',
        failed: { code: error.kind, message: error.message },
        runId: NO_RUN,
        agentPath: NO_PATH,
        seq: 0,
        ts: NO_TS,
      });
    const retryInMs = error.kind === 'overflow' || error.kind === 'aborted' ? undefined : retry.delayFor(error, attempt + 1);
    const at = port.now();
    const message: AssistantMessage = {
      role: 'assistant',
      content: [],
      stopReason: 'error',
      usage: emptyUsage(),
      model: this.#modelName,
      errorMessage: error.message,
      timestamp: at,
    };
    const event: AgentMachineEvent = { type: 'MODEL.FAILED', request: flight.request, error, message, at };
    if (retryInMs !== undefined) event.retryInMs = retryInMs;
    port.send(event);
  }
}

function internalFailure(what: string, error: unknown): ProviderFailure {
  return { kind: 'api', message: `${what}: ${error instanceof Error ? error.message : String(error)}`, retryable: false };
}
