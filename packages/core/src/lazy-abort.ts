import type { ProviderCallOptions } from './provider.js';

const NOTHING = (): void => undefined;

/**
 * The options of one model call (or the abort of one tool call), whose abort signal is made only
 * when something reads it.
 *
 * Making an `AbortController` costs more in Node than a turn's statechart work, and a call that
 * streams to its end never needs one; a provider that hands the signal to `fetch` reads it and
 * gets a real one. Aborting before the signal exists is remembered: a signal made afterwards is
 * already aborted. One per call, never shared by calls: providers that add abort listeners
 * without removing them would pile them up on a shared signal. {@link LazyAbort.onAbort} hears the
 * abort without making a signal at all.
 */
export class LazyAbort implements ProviderCallOptions {
  #controller: AbortController | undefined;
  #aborted = false;
  /** What {@link onAbort} registered and was not removed yet (made at the first one). */
  #listeners: (() => void)[] | undefined;

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

  /**
   * Calls `listener` once when the call is aborted (at once if it already is), without making an
   * `AbortSignal` (an `AbortController` and an event listener cost more than the rest of a short
   * call's bookkeeping). Returns what removes it.
   */
  onAbort(listener: () => void): () => void {
    if (this.#aborted) {
      listener();
      return NOTHING;
    }
    if (this.#listeners === undefined) this.#listeners = [listener];
    else this.#listeners.push(listener);
    return () => this.#remove(listener);
  }

  /** Aborts the call: fires the signal if it was made, else marks the one made later aborted; then calls the listeners. */
  abort(): void {
    if (this.#aborted) return;
    this.#aborted = true;
    this.#controller?.abort();
    const listeners = this.#listeners;
    this.#listeners = undefined;
    if (listeners === undefined) return;
    for (const listener of listeners) {
      try {
        listener();
      } catch (error) {
        // As an event listener's would be: reported as uncaught, without keeping the others from running.
        queueMicrotask(() => {
          throw error;
        });
      }
    }
  }

  #remove(listener: () => void): void {
    const listeners = this.#listeners;
    const at = listeners?.indexOf(listener) ?? -1;
    if (at >= 0) listeners?.splice(at, 1);
  }
}

/** Whether the call of `options` was aborted, without making its signal when nothing read it yet. */
export function callAborted(options: ProviderCallOptions): boolean {
  return options instanceof LazyAbort ? options.aborted : options.signal.aborted;
}
