import type { AgentEvent, RunId } from '@troupe/core';
import { Observable } from 'rxjs';

/** Receives a run's events in order; `undefined` once the run's events have ended. */
export type RunEventListener = (event: AgentEvent | undefined) => void;

/** The listeners of one run, and whether its events have ended. */
interface RunListeners {
  /**
   * A lone listener as it is (a run handle's: most runs have just that one, and an array each
   * cost many waiting runs a few dozen bytes), or a list, replaced, never changed in place: an
   * emit walks the list it found, without copying it.
   */
  listeners: RunEventListener | readonly RunEventListener[];
  ended: boolean;
}

const NO_LISTENERS: readonly RunEventListener[] = [];

/** Hands `event` to each of `listeners`. */
function tell(listeners: RunEventListener | readonly RunEventListener[], event: AgentEvent | undefined): void {
  if (typeof listeners === 'function') listeners(event);
  else for (let i = 0; i < listeners.length; i++) listeners[i]?.(event);
}

/**
 * Hands each run's events to whoever listens, in order: plain listener functions (what a run
 * handle follows its run with) and rxjs subscribers (`events(runId)`), one list per run.
 *
 * Many runs may wait for days with nobody watching them: a run costs one small record here (from
 * its first listener until its events end), and no rxjs machinery at all until someone subscribes
 * (a Subject per run and a subscriber per handle were most of a waiting run's bookkeeping).
 */
export class RunEventFanOut {
  readonly #runs = new Map<string, RunListeners>();

  /** Hands `event` to its run's listeners, in the order they started listening. */
  emit(event: AgentEvent): void {
    const run = this.#runs.get(event.runId);
    if (run === undefined) return;
    // A listener that comes or goes meanwhile replaces the list: this walk sees the one it started with.
    tell(run.listeners, event);
  }

  /** Adds `listener` to `runId`'s listeners; returns what removes it. */
  listen(runId: RunId, listener: RunEventListener): () => void {
    return this.#add(this.#run(runId), listener);
  }

  /** `runId`'s events as a hot observable: it sees what is emitted while subscribed, and completes when the run's events end. */
  events(runId: RunId): Observable<AgentEvent> {
    // Taken now, as a Subject was: subscribing after the run's events ended completes at once.
    const run = this.#run(runId);
    return new Observable<AgentEvent>((subscriber) => {
      if (run.ended) {
        subscriber.complete();
        return undefined;
      }
      return this.#add(run, (event) => (event === undefined ? subscriber.complete() : subscriber.next(event)));
    });
  }

  /** Ends `runId`'s events: every listener hears `undefined` (subscribers complete) and the run is forgotten. */
  end(runId: RunId): void {
    const run = this.#runs.get(runId);
    if (run === undefined) return;
    this.#runs.delete(runId);
    run.ended = true;
    const listeners = run.listeners;
    run.listeners = NO_LISTENERS;
    tell(listeners, undefined);
  }

  /** Ends every run's events. */
  close(): void {
    for (const runId of [...this.#runs.keys()]) this.end(runId as RunId);
  }

  #run(runId: RunId): RunListeners {
    let run = this.#runs.get(runId);
    if (run === undefined) {
      run = { listeners: NO_LISTENERS, ended: false };
      this.#runs.set(runId, run);
    }
    return run;
  }

  #add(run: RunListeners, listener: RunEventListener): () => void {
    if (run.ended) return () => undefined;
    const { listeners } = run;
    // `concat` makes an array of the exact size (a push into an empty one reserves room for 17).
    if (typeof listeners === 'function') run.listeners = [listeners, listener];
    else run.listeners = listeners.length === 0 ? listener : listeners.concat(listener);
    return () => {
      const now = run.listeners;
      if (now === listener) run.listeners = NO_LISTENERS;
      else if (typeof now !== 'function') {
        const at = now.indexOf(listener);
        if (at >= 0) run.listeners = now.length === 2 ? (now[1 - at] ?? NO_LISTENERS) : now.slice(0, at).concat(now.slice(at + 1));
      }
    };
  }
}
