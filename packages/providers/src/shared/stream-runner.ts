import type { AssistantMessage, ProviderEvent, ProviderFailure, StopReason } from '@troupe/core';
import { usageWithCost, type Pricing, type TokenCounts } from '../catalog/usage-cost.js';
import type { ContentBuilder } from './content-builder.js';
import { abortedFailure, isAbortError } from './failure.js';
import type { Scrubber } from './secret-scrubber.js';

/** Thrown by a vendor turn when the stream itself reports a failure (an `error` event). */
export class StreamFailure extends Error {
  readonly failure: ProviderFailure;

  constructor(failure: ProviderFailure) {
    super(failure.message);
    this.name = 'StreamFailure';
    this.failure = failure;
  }
}

/** The state of one streamed reply: it reads vendor events into a {@link ContentBuilder}. */
export interface VendorTurn<E> {
  readonly builder: ContentBuilder;
  /** Reads one vendor event. Throws {@link StreamFailure} for an error the stream reports. */
  on(event: E): void;
  /** The finished message once the vendor's stream ended; throws {@link StreamFailure} if it ended without one. */
  finish(): AssistantMessage;
}

/** What {@link runStream} needs. */
export interface RunStreamOptions<E> {
  signal: AbortSignal;
  scrub: Scrubber;
  /** Sends the request; resolves once the response stream is open, or rejects (HTTP error, connection failure). */
  open(): Promise<AsyncIterable<E>>;
  turn: VendorTurn<E>;
  /** Turns anything `open` or the stream threw into a failure (aborts are handled before). */
  classify(error: unknown): ProviderFailure;
}

function scrubbed(failure: ProviderFailure, scrub: Scrubber): ProviderEvent {
  return { type: 'error', error: { ...failure, message: scrub(failure.message) } };
}

/**
 * Runs one vendor stream under the core's provider contract: `start` once the response is open,
 * the builder's deltas as vendor events arrive, then exactly one `done` or `error`. Never throws;
 * an abort (before, during or after the request) ends with `kind: 'aborted'`. Error messages go
 * through `scrub`, so API keys never leave the provider.
 */
export async function* runStream<E>(options: RunStreamOptions<E>): AsyncGenerator<ProviderEvent> {
  const { signal, scrub, turn } = options;
  if (signal.aborted) {
    yield scrubbed(abortedFailure(), scrub);
    return;
  }
  let failure: ProviderFailure;
  try {
    const events = await options.open();
    yield { type: 'start' };
    for await (const event of events) {
      turn.on(event);
      if (turn.builder.hasEvents) yield* turn.builder.drain();
    }
    if (signal.aborted) {
      yield scrubbed(abortedFailure(), scrub);
      return;
    }
    const message = turn.finish();
    yield* turn.builder.drain();
    yield { type: 'done', message };
    return;
  } catch (error) {
    if (signal.aborted || isAbortError(error)) failure = abortedFailure();
    else if (error instanceof StreamFailure) failure = error.failure;
    else {
      try {
        failure = options.classify(error);
      } catch (classifyError) {
        failure = { kind: 'api', message: `provider failed: ${String(classifyError)}`, retryable: false };
      }
    }
  }
  yield scrubbed(failure, scrub);
}

/** How a vendor said its reply ended, in the core's words (`refusal`: refused, or stopped by a content filter). */
export type VendorStop = 'stop' | 'length' | 'refusal' | 'error';

/** The core stop reason: a refusal or `length` wins, then tool calls, then the vendor's own word. */
export function stopReasonOf(vendor: VendorStop, toolCalls: number): StopReason {
  if (vendor === 'refusal') return 'refusal';
  if (vendor === 'length') return 'length';
  if (vendor === 'error') return 'error';
  return toolCalls > 0 ? 'toolUse' : 'stop';
}

/** Assembles the finished message of a turn. */
export function finishedMessage(input: {
  builder: ContentBuilder;
  stopReason: StopReason;
  tokens: TokenCounts;
  pricing: Pricing;
  /** `provider:model` */
  model: string;
  timestamp: number;
  errorMessage?: string;
}): AssistantMessage {
  const message: AssistantMessage = {
    role: 'assistant',
    content: input.builder.content,
    stopReason: input.stopReason,
    usage: usageWithCost(input.tokens, input.pricing),
    model: input.model,
    timestamp: input.timestamp,
  };
  if (input.errorMessage !== undefined) message.errorMessage = input.errorMessage;
  return message;
}
