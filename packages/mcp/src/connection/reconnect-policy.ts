/** How soon a server that keeps failing is tried again. */
export interface ReconnectOptions {
  /** The wait after the second failure in a row; it doubles with each further one. Default 1000. */
  baseMs?: number;
  /** The longest wait. Default 30000. */
  maxMs?: number;
}

/**
 * Counts failures in a row (a connection that could not be made, a server that exited) and says
 * how long to wait before the next attempt: none after the first failure (a crashed server is
 * restarted on the next use at once), then `baseMs`, doubling up to `maxMs`. Any successful
 * exchange with the server resets it.
 */
export class ReconnectPolicy {
  readonly #baseMs: number;
  readonly #maxMs: number;
  readonly #now: () => number;
  #failures = 0;
  #lastFailureAt = 0;
  #lastError = '';

  constructor(options: ReconnectOptions, now: () => number) {
    this.#baseMs = options.baseMs ?? 1000;
    this.#maxMs = options.maxMs ?? 30_000;
    this.#now = now;
  }

  get failures(): number {
    return this.#failures;
  }

  get lastError(): string {
    return this.#lastError;
  }

  failed(reason: string): void {
    this.#failures += 1;
    this.#lastFailureAt = this.#now();
    this.#lastError = reason;
  }

  succeeded(): void {
    this.#failures = 0;
  }

  /** Milliseconds until the next attempt may start (0: now). */
  remainingMs(): number {
    if (this.#failures <= 1) return 0;
    const delay = Math.min(this.#maxMs, this.#baseMs * 2 ** (this.#failures - 2));
    return Math.max(0, this.#lastFailureAt + delay - this.#now());
  }
}
