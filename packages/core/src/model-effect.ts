import type { AgentHooks } from './agent-hooks.js';
import type { Clock, TimerHandle } from './clock.js';
import type { AgentEventPayload } from './events.js';
import { STREAM_ABORTED } from './interrupts.js';
import type { AgentMachineEvent } from './machine-types.js';
import { textOf, toLlmMessages, type AssistantMessage, type LlmMessage, type Message } from './messages.js';
import type { JsonOutcome } from './structured-output.js';
import type { CompactionStrategy } from './compaction.js';
import type { Provider, ProviderFailure, ProviderRequest } from './provider.js';
import { StreamingMessageBuilder, type StreamingMessage } from './streaming-message.js';
import type { ToolSet } from './tool-set.js';
import type { RetryStrategy } from './retry-strategy.js';
import { emptyUsage } from './usage.js';

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
  compaction: CompactionStrategy;
  /** Context window in tokens; requests estimated past it are reported as overflow (see `estimateTokens`). */
  contextWindow?: number;
  hooks: AgentHooks;
  /** Times the step delay. */
  clock: Clock;
  now(): number;
  emit(payload: AgentEventPayload): void;
  send(event: AgentMachineEvent): void;
}

interface InFlight {
  request: number;
  controller: AbortController;
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
  #current: InFlight | undefined;

  constructor(deps: ModelEffectDeps) {
    this.#deps = { ...deps };
  }

  /** Calls `provider` with `request` from the next call on (between runs: `Agent.configure`). */
  reconfigure(provider: Provider, request: Omit<ProviderRequest, 'messages' | 'tools'>): void {
    this.#deps.provider = provider;
    this.#deps.request = request;
  }

  /** The reply being streamed, if one is. */
  get streaming(): StreamingMessage | undefined {
    return this.#current?.partial?.message;
  }

  /**
   * Starts a model call for `request` (after `delayMs` on the clock, when given); the previous one,
   * if any, must have been cancelled. `messages` must not change afterwards (a history view).
   */
  call(request: number, attempt: number, messages: readonly Message[], delayMs = 0): void {
    const flight: InFlight = { request, controller: new AbortController(), streaming: false };
    this.#current = flight;
    if (delayMs <= 0) {
      this.#begin(flight, attempt, messages);
      return;
    }
    flight.timer = this.#deps.clock.setTimeout(() => {
      flight.timer = undefined;
      if (this.#isCurrent(flight)) this.#begin(flight, attempt, messages);
    }, delayMs);
  }

  #begin(flight: InFlight, attempt: number, messages: readonly Message[]): void {
    this.#stream(flight, attempt, messages).catch((error: unknown) => this.#fail(flight, attempt, internalFailure('model call failed', error)));
  }

  /** Runs the compaction strategy over `messages`. */
  compact(request: number, messages: readonly Message[]): void {
    const flight: InFlight = { request, controller: new AbortController(), streaming: false };
    this.#current = flight;
    Promise.resolve()
      .then(() => this.#deps.compaction.compact(messages, { signal: flight.controller.signal }))
      .then(
        (compacted) => this.#isCurrent(flight) && this.#deps.send({ type: 'COMPACTED', request, messages: compacted, at: this.#deps.now() }),
        (error: unknown) => this.#fail(flight, 0, internalFailure('compaction failed', error)),
      )
      .catch((error: unknown) => this.#fail(flight, 0, internalFailure('compaction failed', error)));
  }

  /** Aborts the call for `request`. A reply that had started streaming is closed as failed. */
  cancel(request: number): void {
    const flight = this.#current;
    if (flight === undefined || flight.request !== request) return;
    this.#current = undefined;
    if (flight.timer !== undefined) this.#deps.clock.clearTimeout(flight.timer);
    flight.controller.abort();
    if (flight.streaming) this.#deps.emit({ type: 'message_end', role: 'assistant', failed: { code: 'aborted', message: STREAM_ABORTED } });
  }

  #isCurrent(flight: InFlight): boolean {
    return this.#current === flight;
  }

  async #stream(flight: InFlight, attempt: number, history: readonly Message[]): Promise<void> {
    const { provider, hooks, emit, send, now } = this.#deps;
    const signal = flight.controller.signal;
    let messages = history;
    if (hooks.transformContext !== undefined) {
      try {
        messages = await hooks.transformContext(history, { signal });
      } catch (error) {
        this.#fail(flight, attempt, internalFailure('transformContext hook failed', error));
        return;
      }
      if (!this.#isCurrent(flight)) return;
    }
    let llm: readonly LlmMessage[];
    try {
      // Without hooks the view already leaves custom messages out: no pass over the history.
      llm = hooks.transformContext === undefined && hooks.convertToLlm === undefined ? (messages as readonly LlmMessage[]) : toLlmMessages(messages, hooks.convertToLlm);
    } catch (error) {
      this.#fail(flight, attempt, internalFailure('convertToLlm hook failed', error));
      return;
    }
    const request: ProviderRequest = { ...this.#deps.request, tools: this.#deps.tools.current().definitions, messages: llm };
    const window = this.#deps.contextWindow;
    if (window !== undefined) {
      const needed = estimateTokens(messages, request) + (request.maxTokens ?? 0);
      if (needed > window) {
        this.#fail(flight, attempt, { kind: 'overflow', message: `the request needs about ${needed} tokens with its reply, over the context window of ${window}`, retryable: false });
        return;
      }
    }
    for await (const event of provider.stream(request, { signal })) {
      if (!this.#isCurrent(flight)) return;
      switch (event.type) {
        case 'start':
          this.#start(flight, attempt);
          break;
        case 'done':
          this.#start(flight, attempt);
          this.#current = undefined;
          emit({ type: 'message_end', role: 'assistant', message: event.message });
          send(this.#done(flight.request, event.message));
          return;
        case 'error':
          this.#fail(flight, attempt, event.error);
          return;
        default:
          if (!flight.streaming) this.#start(flight, attempt);
          flight.partial?.apply(event);
          emit({ type: 'message_update', delta: event });
      }
    }
    if (this.#isCurrent(flight)) this.#fail(flight, attempt, { kind: 'api', message: 'the provider stream ended without a result', retryable: true });
  }

  /** `MODEL.DONE` for `message`, with the output check of a reply that may be the final answer. */
  #done(request: number, message: AssistantMessage): AgentMachineEvent {
    const event: AgentMachineEvent = { type: 'MODEL.DONE', request, message, at: this.#deps.now() };
    const check = this.#deps.checkOutput;
    if (check !== undefined && (message.stopReason === 'stop' || message.stopReason === 'length') && !message.content.some((part) => part.type === 'toolCall')) {
      event.output = check(textOf(message));
    }
    return event;
  }

  #start(flight: InFlight, attempt: number): void {
    if (flight.streaming) return;
    flight.streaming = true;
    flight.partial = new StreamingMessageBuilder(this.#modelName(), this.#deps.now());
    this.#deps.emit(attempt === 0 ? { type: 'message_start', role: 'assistant' } : { type: 'message_start', role: 'assistant', attempt });
  }

  #fail(flight: InFlight, attempt: number, error: ProviderFailure): void {
    if (!this.#isCurrent(flight)) return;
    this.#current = undefined;
    const { emit, send, now, retry } = this.#deps;
    if (flight.streaming) emit({ type: 'message_end', role: 'assistant', failed: { code: error.kind, message: error.message } });
    const retryInMs = error.kind === 'overflow' || error.kind === 'aborted' ? undefined : retry.delayFor(error, attempt + 1);
    const at = now();
    const message: AssistantMessage = { role: 'assistant', content: [], stopReason: 'error', usage: emptyUsage(), model: this.#modelName(), errorMessage: error.message, timestamp: at };
    const event: AgentMachineEvent = { type: 'MODEL.FAILED', request: flight.request, error, message, at };
    if (retryInMs !== undefined) event.retryInMs = retryInMs;
    send(event);
  }

  /** `provider:model`, as a finished message names its model. */
  #modelName(): string {
    return `${this.#deps.provider.name}:${this.#deps.request.model}`;
  }
}

function internalFailure(what: string, error: unknown): ProviderFailure {
  return { kind: 'api', message: `${what}: ${error instanceof Error ? error.message : String(error)}`, retryable: false };
}

/**
 * A request's size in tokens: what the model reported for the last reply (its input and output)
 * plus about one token per four characters of everything after it (or of the whole request when
 * there was no reply yet). Coarse on purpose: it only has to see an overflow coming.
 */
export function estimateTokens(messages: readonly Message[], request: Omit<ProviderRequest, 'messages'>): number {
  let tokens = 0;
  let from = 0;
  for (let i = messages.length - 1; i >= 0; i--) {
    const message = messages[i];
    if (message?.role === 'assistant' && message.usage.input + message.usage.cacheRead > 0) {
      const { input, output, cacheRead, cacheWrite } = message.usage;
      tokens = input + output + cacheRead + cacheWrite;
      from = i + 1;
      break;
    }
  }
  let chars = 0;
  if (from === 0) chars += (request.systemPrompt?.length ?? 0) + JSON.stringify(request.tools).length;
  for (let i = from; i < messages.length; i++) chars += JSON.stringify(messages[i]?.content ?? '').length;
  return tokens + Math.ceil(chars / 4);
}
