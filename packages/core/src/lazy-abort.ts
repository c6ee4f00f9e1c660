import type { ProviderCallOptions } from './provider.js';

/**
 * The options of one model call, whose abort signal is made only when something reads it.
 *
 * Making an `AbortController` costs more in Node than a turn's statechart work, and a call that
 * streams to its end never needs one; a provider that hands the signal to `fetch` reads it and
 * gets a real one. Aborting before the signal exists is remembered: a signal made afterwards is
 * already aborted. One per call, never shared by calls: providers that add abort listeners
 * without removing them would pile them up on a shared signal.
 */
export class LazyAbort implements ProviderCallOptions {
  #controller: AbortController | undefined;
  #aborted = false;

  /** The call's signal, made on first read. */
  get signal(): AbortSignal {
    if (this.#controller === undefined) {
      this.#controller = new AbortController();
      if (this.#aborted) this.#controller.abort();
    }
    return this.#controller.signal;
  }

  /** Whether the call was aborted (reading it makes no signal). */
  get aborted(): boolean {
    return this.#aborted;
  }

  /** Aborts the call: fires the signal if it was made, else marks the one made later aborted. */
  abort(): void {
    if (this.#aborted) return;
    this.#aborted = true;
    this.#controller?.abort();
  }
}

/** Whether the call of `options` was aborted, without making its signal when nothing read it yet. */
export function callAborted(options: ProviderCallOptions): boolean {
  return options instanceof LazyAbort ? options.aborted : options.signal.aborted;
}
