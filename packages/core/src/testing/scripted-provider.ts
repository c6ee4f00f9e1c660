import { systemClock, type Clock } from '../clock.js';
import { messagesTokens, requestOverheadTokens } from '../compaction/token-estimate.js';
import { textOf, type AssistantContent, type AssistantMessage, type StopReason, type ToolCall } from '../messages.js';
import { callAborted } from '../lazy-abort.js';
import { withFields } from '../with-fields.js';
import type { Provider, ProviderCallOptions, ProviderErrorKind, ProviderEvent, ProviderFailure, ProviderRequest } from '../provider.js';
import { emptyUsage, type Usage } from '../usage.js';

/** A scripted tool call. `rawArguments` sends broken JSON instead of `arguments`. */
export interface ScriptedToolCall {
  name: string;
  arguments?: Record<string, unknown>;
  rawArguments?: string;
  id?: string;
}

/** One scripted assistant reply. */
export interface ScriptedReply {
  /** The reply's text. `{{lastToolResult}}` is replaced by the text of the latest tool result the request carries. */
  text?: string;
  thinking?: string;
  toolCalls?: ScriptedToolCall[];
  /** Defaults to `toolUse` when there are tool calls, else `stop`. */
  stopReason?: Exclude<StopReason, 'error' | 'aborted'>;
  /** Token counts; `reasoning` is the part of `output` spent reasoning (as vendors that report it say). */
  usage?: { input?: number; output?: number; cacheRead?: number; cacheWrite?: number; reasoning?: number };
  /** Total dollar cost of the reply; overrides the provider's pricing. */
  cost?: number;
  /** Wait this long (on the provider's clock) before streaming. */
  delayMs?: number;
}

/** One scripted failure; `partialText` streams first, as when a connection drops mid-reply. */
export interface ScriptedFailure {
  error: { kind: ProviderErrorKind; message?: string; retryAfterMs?: number; status?: number; retryable?: boolean };
  partialText?: string;
  delayMs?: number;
}

/** A step of a script: a reply or a failed attempt. Steps are consumed one per model call. */
export type ScriptStep = ScriptedReply | ScriptedFailure;

/** Options of {@link createScriptedProvider}. */
export interface ScriptedProviderOptions {
  /** Clock for `delayMs`. Default: the system clock. */
  clock?: Clock;
  /** Characters per streamed delta. Default 16. */
  chunkSize?: number;
  /** Dollars per million tokens, used when a reply has no `cost`. */
  pricing?: { input?: number; output?: number };
  /** Index of the first step to play (to continue a script in another process). Default 0. */
  startAt?: number;
  /** Keep a copy of every request in `requests` (for tests to inspect). Default true. */
  recordRequests?: boolean;
  /**
   * Report a reply's input tokens as the size of its request (about one token per four
   * characters, the agent's own estimate), as a real model counts its prompt, instead of 10 per
   * message. Default false.
   */
  inputFromSize?: boolean;
}

/** A provider that replays a script; `position` is the index of the next step. */
export interface ScriptedProvider extends Provider {
  readonly position: number;
  /** Every request received, in order (the model input each call saw). */
  readonly requests: readonly ProviderRequest[];
}

const RETRYABLE: Record<ProviderErrorKind, boolean> = {
  rate_limited: true,
  network: true,
  api: true,
  overflow: false,
  auth: false,
  aborted: false,
  invalid_request: false,
};

/**
 * The deterministic provider every test and offline example uses: each model call plays the
 * next step of the script, streaming text, thinking and tool-call arguments in small deltas and
 * honouring abort (also during `delayMs`). A call past the end of the script fails with a clear
 * `api` error rather than hanging.
 */
export function createScriptedProvider(script: readonly ScriptStep[], options: ScriptedProviderOptions = {}): ScriptedProvider {
  return new ScriptPlayer(script, options);
}

/**
 * The scripted provider. A class, not an object of closures: every instance shares one `stream`
 * function, so the agent's optimised model call, which inlines it, stays valid when a new agent
 * brings a new provider (closures made per provider deoptimised it at each agent's first turns).
 */
class ScriptPlayer implements ScriptedProvider {
  readonly name = 'scripted';
  readonly requests: ProviderRequest[] = [];
  readonly #script: readonly ScriptStep[];
  readonly #options: ScriptedProviderOptions;
  readonly #clock: Clock;
  readonly #chunkSize: number;
  readonly #record: boolean;
  #position: number;

  constructor(script: readonly ScriptStep[], options: ScriptedProviderOptions) {
    this.#script = script;
    this.#options = options;
    this.#clock = options.clock ?? systemClock;
    this.#chunkSize = Math.max(1, options.chunkSize ?? 16);
    this.#record = options.recordRequests ?? true;
    this.#position = options.startAt ?? 0;
  }

  get position(): number {
    return this.#position;
  }

  stream(request: ProviderRequest, call: ProviderCallOptions): AsyncIterable<ProviderEvent> {
    // `request.messages` is a fixed-length view of the history as the call saw it (see the
    // Provider contract): kept as it is, not copied (a copy per call made a long run quadratic).
    if (this.#record) this.requests.push(withFields(request, {}));
    const index = this.#position++;
    const step = this.#script[index];
    const delay = step?.delayMs ?? 0;
    // Abort is checked with `callAborted`: an agent's call makes no signal unless one is needed (the wait needs it).
    return streamOf(() => this.#play(step, index, request, call), delay > 0 ? () => sleep(this.#clock, delay, call.signal) : undefined);
  }

  /** The step's events; computed lazily, so abort is checked as the consumer reads. */
  *#play(step: ScriptStep | undefined, index: number, request: ProviderRequest, callOptions: ProviderCallOptions): Generator<ProviderEvent> {
    if (step === undefined) {
      yield failure({ kind: 'api', message: `scripted provider: the script has no step ${index + 1} (it has ${this.#script.length})`, retryable: false });
      return;
    }
    if (callAborted(callOptions)) {
      yield aborted();
      return;
    }
    yield { type: 'start' };
    if ('error' in step) {
      if (step.partialText !== undefined) yield* this.#streamText(step.partialText, 0);
      const { kind, message, retryAfterMs, status, retryable } = step.error;
      const error: ProviderFailure = { kind, message: message ?? `scripted ${kind} error`, retryable: retryable ?? RETRYABLE[kind] };
      if (retryAfterMs !== undefined) error.retryAfterMs = retryAfterMs;
      if (status !== undefined) error.status = status;
      yield failure(error);
      return;
    }
    const content: AssistantContent[] = [];
    if (step.thinking !== undefined) {
      const i = content.length;
      content.push({ type: 'thinking', thinking: step.thinking });
      yield { type: 'thinking_start', index: i };
      for (const chunk of chunks(step.thinking, this.#chunkSize)) yield { type: 'thinking_delta', index: i, delta: chunk };
      yield { type: 'thinking_end', index: i };
    }
    if (step.text !== undefined) {
      const text = step.text.includes(LAST_TOOL_RESULT) ? step.text.replaceAll(LAST_TOOL_RESULT, lastToolResult(request)) : step.text;
      content.push({ type: 'text', text });
      yield* this.#streamText(text, content.length - 1);
    }
    for (const [n, scripted] of (step.toolCalls ?? []).entries()) {
      if (callAborted(callOptions)) break;
      const call = toToolCall(scripted, `call_${index + 1}_${n + 1}`);
      const i = content.length;
      content.push(call);
      yield { type: 'toolcall_start', index: i, id: call.id, name: call.name };
      const json = call.rawArguments ?? JSON.stringify(call.arguments);
      for (const chunk of chunks(json, this.#chunkSize)) yield { type: 'toolcall_delta', index: i, delta: chunk };
      yield { type: 'toolcall_end', index: i };
    }
    if (callAborted(callOptions)) {
      yield aborted();
      return;
    }
    const hasCalls = (step.toolCalls?.length ?? 0) > 0;
    const stopReason = step.stopReason ?? (hasCalls ? 'toolUse' : 'stop');
    const message: AssistantMessage = {
      role: 'assistant',
      // An exact-size copy: the history keeps the message, and the array pushed into reserved room for 17 parts.
      content: content.slice(),
      stopReason,
      usage: this.#usageOf(step, request),
      model: `scripted:${request.model}`,
      timestamp: this.#clock.now(),
    };
    yield { type: 'done', message };
  }

  *#streamText(text: string, index: number): Generator<ProviderEvent> {
    yield { type: 'text_start', index };
    for (const chunk of chunks(text, this.#chunkSize)) yield { type: 'text_delta', index, delta: chunk };
    yield { type: 'text_end', index };
  }

  #usageOf(step: ScriptedReply, request: ProviderRequest): Usage {
    const { inputFromSize, pricing } = this.#options;
    const usage = emptyUsage();
    usage.input =
      step.usage?.input ?? (inputFromSize === true ? requestOverheadTokens(request) + messagesTokens(request.messages) : 10 * request.messages.length);
    usage.output = step.usage?.output ?? Math.ceil(((step.text?.length ?? 0) + (step.thinking?.length ?? 0)) / 4) + 10 * (step.toolCalls?.length ?? 0);
    usage.cacheRead = step.usage?.cacheRead ?? 0;
    usage.cacheWrite = step.usage?.cacheWrite ?? 0;
    usage.totalTokens = usage.input + usage.output + usage.cacheRead + usage.cacheWrite;
    if (step.usage?.reasoning !== undefined) usage.reasoning = step.usage.reasoning;
    if (step.cost !== undefined) {
      usage.cost.total = step.cost;
    } else if (pricing !== undefined) {
      usage.cost.input = (usage.input * (pricing.input ?? 0)) / 1e6;
      usage.cost.output = (usage.output * (pricing.output ?? 0)) / 1e6;
      usage.cost.total = usage.cost.input + usage.cost.output;
    }
    return usage;
  }
}

const LAST_TOOL_RESULT = '{{lastToolResult}}';

function lastToolResult(request: ProviderRequest): string {
  for (let i = request.messages.length - 1; i >= 0; i--) {
    const message = request.messages[i];
    if (message?.role === 'toolResult') return textOf(message);
  }
  return '';
}

function toToolCall(scripted: ScriptedToolCall, fallbackId: string): ToolCall {
  const call: ToolCall = { type: 'toolCall', id: scripted.id ?? fallbackId, name: scripted.name, arguments: scripted.arguments ?? {} };
  if (scripted.rawArguments !== undefined) {
    call.rawArguments = scripted.rawArguments;
    call.arguments = {};
  }
  return call;
}

/**
 * An async stream over a synchronous generator of events, after an optional wait: one resolved
 * promise per event rather than an async generator's queue (the scripted model is on every
 * benchmark's hot path). A wait that is aborted ends the stream with an `aborted` error.
 */
function streamOf(events: () => Iterator<ProviderEvent>, wait: (() => Promise<boolean>) | undefined): AsyncIterable<ProviderEvent> {
  return {
    [Symbol.asyncIterator](): AsyncIterator<ProviderEvent> {
      let iterator: Iterator<ProviderEvent> | undefined;
      const step = (): Promise<IteratorResult<ProviderEvent>> => Promise.resolve((iterator as Iterator<ProviderEvent>).next());
      return {
        next() {
          if (iterator !== undefined) return step();
          if (wait === undefined) {
            iterator = events();
            return step();
          }
          return wait().then((ok) => {
            iterator = ok ? events() : [aborted()][Symbol.iterator]();
            return step();
          });
        },
        return() {
          iterator = [][Symbol.iterator]();
          return Promise.resolve({ done: true, value: undefined });
        },
      };
    },
  };
}

function* chunks(text: string, size: number): Generator<string> {
  for (let i = 0; i < text.length; i += size) yield text.slice(i, i + size);
}

function failure(error: ProviderFailure): ProviderEvent {
  return { type: 'error', error };
}

function aborted(): ProviderEvent {
  return failure({ kind: 'aborted', message: 'request aborted', retryable: false });
}

/** Resolves true after `ms`, or false as soon as `signal` fires. */
function sleep(clock: Clock, ms: number, signal: AbortSignal): Promise<boolean> {
  if (signal.aborted) return Promise.resolve(false);
  return new Promise((resolve) => {
    const onAbort = (): void => {
      clock.clearTimeout(handle);
      resolve(false);
    };
    const handle = clock.setTimeout(() => {
      signal.removeEventListener('abort', onAbort);
      resolve(true);
    }, ms);
    signal.addEventListener('abort', onAbort, { once: true });
  });
}
