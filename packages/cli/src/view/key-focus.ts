import type { KeyInput, KeyPress } from '../cli-io.js';

/**
 * Reads the terminal's keys for as long as a run is shown (so typing never echoes into the live
 * area) and hands them to whoever has the focus: the prompt on screen, or nobody (they are
 * dropped).
 */
export class KeyFocus {
  readonly #stop: () => void;
  #handler: ((key: KeyPress) => void) | undefined;

  constructor(keys: KeyInput) {
    this.#stop = keys.listen((key) => this.#handler?.(key));
  }

  /** Gives the keys to `handler` until the returned function is called. */
  take(handler: (key: KeyPress) => void): () => void {
    this.#handler = handler;
    return () => {
      if (this.#handler === handler) this.#handler = undefined;
    };
  }

  /** Stops reading keys. */
  close(): void {
    this.#handler = undefined;
    this.#stop();
  }
}
