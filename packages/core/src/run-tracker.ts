import type { AgentResult } from './agent-result.js';
import type { Clock, TimerHandle } from './clock.js';

interface PendingRun {
  promise: Promise<AgentResult>;
  resolve(result: AgentResult): void;
}

/**
 * An agent's current run as its caller sees it: the promise of its result (and of the last run's,
 * once it ended) and the timer of its wall-time limit, set on the agent's clock.
 */
export class RunTracker {
  readonly #clock: Clock;
  #run: PendingRun | undefined;
  #last: Promise<AgentResult> | undefined;
  #timer: TimerHandle | undefined;

  constructor(clock: Clock) {
    this.#clock = clock;
  }

  /** The current run's result, or the last one's; undefined before any run. */
  get result(): Promise<AgentResult> | undefined {
    return this.#run?.promise ?? this.#last;
  }

  /**
   * Begins tracking a run. With `wall`, `wall.reached` is called once `wall.remainingMs` have
   * passed on the clock, unless the run ended before.
   */
  begin(wall?: { remainingMs: number; reached(): void }): Promise<AgentResult> {
    let resolve!: (result: AgentResult) => void;
    const promise = new Promise<AgentResult>((r) => (resolve = r));
    this.#run = { promise, resolve };
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
    const run = this.#run;
    this.#run = undefined;
    run?.resolve(result);
    return run !== undefined;
  }

  /** Forgets the last run (after a reset). */
  forget(): void {
    this.#last = this.#run?.promise;
  }

  /** Cancels the wall-time timer. */
  stopTimer(): void {
    if (this.#timer === undefined) return;
    this.#clock.clearTimeout(this.#timer);
    this.#timer = undefined;
  }
}
