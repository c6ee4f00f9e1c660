import type { ActorTrace } from './instrumentation.js';

/**
 * The traces of actors let go before their run ended (one-shot children), each ended with its run
 * (`end`) or when the host closes: an actor's trace spans as long as when its actor stayed hosted
 * until then, while the actor itself leaves memory as soon as it has ended.
 */
export class RetiredTraces {
  readonly #byRun = new Map<string, ActorTrace[]>();

  /** Keeps `trace` open until `end(runId)`. */
  park(runId: string, trace: ActorTrace): void {
    const traces = this.#byRun.get(runId);
    if (traces === undefined) this.#byRun.set(runId, [trace]);
    else traces.push(trace);
  }

  /** Ends the parked traces of `runId`, in the order they were parked. */
  end(runId: string): void {
    const traces = this.#byRun.get(runId);
    this.#byRun.delete(runId);
    for (const trace of traces ?? []) trace.end();
  }

  /** Ends every parked trace. */
  endAll(): void {
    for (const runId of [...this.#byRun.keys()]) this.end(runId);
  }
}
