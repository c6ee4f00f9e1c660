import type { AgentResult } from './agent-result.js';
import type { Clock, TimerHandle } from './clock.js';

/**
 * An agent's current run as its caller sees it: the promise of its result (and of the last run's,
 * once it ended) and the timer of its wall-time limit, set on the agent's clock.
 */
export class RunTracker {
  readonly #clock: Clock;
  /** Resolves the current run's result; undefined when no run is tracked. In fields, not a record per run. */
  #resolve: ((result: AgentResult) => void) | undefined;
  /** The current run's result, or the last one's. */
  #last: Promise<AgentResult> | undefined;
  #timer: TimerHandle | undefined;

  constructor(clock: Clock) {
    this.#clock = clock;
  }

  /** The current run's result, or the last one's; undefined before any run. */
  get result(): Promise<AgentResult> | undefined {
    return this.#last;
  }

  /**
   * Begins tracking a run. With `wall`, `wall.reached` is called once `wall.remainingMs` have
   * passed on the clock, unless the run ended before.
   */
  begin(wall?: { remainingMs: number; reached(): void }): Promise<AgentResult> {
    const promise = new Promise<AgentResult>((resolve) => (this.#resolve = resolve));
    this.#last = promise;
    if (wall !== undefined) {
      this.#timer = this.#clock.setTimeout(
        () => {
          this.#timer = undefined;
          wall.reached();
        },
        Math.max(0, wall.remainingMs),
      );
    }
    return promise;
  }

  /** The run ended with `result`; false when no run was tracked. */
  end(result: AgentResult): boolean {
    this.stopTimer();
    const resolve = this.#resolve;
    this.#resolve = undefined;
    resolve?.(result);
    return resolve !== undefined;
  }

  /** Forgets the last run (after a reset). */
  forget(): void {
    // A run still tracked stays the result; else there is none.
    if (this.#resolve === undefined) this.#last = undefined;
  }

  /** Cancels the wall-time timer. */
  stopTimer(): void {
    if (this.#timer === undefined) return;
    this.#clock.clearTimeout(this.#timer);
    this.#timer = undefined;
  }
}
