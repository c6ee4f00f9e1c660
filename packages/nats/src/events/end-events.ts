import type { AgentEvent, AgentPath, AgentResult, RunId } from '@troupe/core';
import type { Observable, Subscription } from 'rxjs';

interface RunEnds {
  subscription: Subscription;
  waiters: Map<string, Array<(result: AgentResult) => void>>;
}

/**
 * The fast way to learn that a remote actor ended: its `agent_end` event among the run's events,
 * which arrives before its record's update and after every earlier event of that actor. One
 * subscription per run with waiters, dropped with its last waiter. Live only: whoever waits must
 * also watch the actor's record (see `ActorRecords.ended`) for an end that came before.
 */
export class EndEvents {
  readonly #events: (runId: RunId) => Observable<AgentEvent>;
  readonly #runs = new Map<string, RunEnds>();

  /** `events` follows a run's events (the transport's shared subscription). */
  constructor(events: (runId: RunId) => Observable<AgentEvent>) {
    this.#events = events;
  }

  /**
   * Resolves with the result of the next `agent_end` of the actor at `path`. The subscription is
   * made before this returns, so an end published after the call is seen. `cancel` stops waiting.
   */
  next(runId: RunId, path: AgentPath): { ended: Promise<AgentResult>; cancel(): void } {
    const run = this.#run(runId);
    let resolver!: (result: AgentResult) => void;
    const ended = new Promise<AgentResult>((resolve) => (resolver = resolve));
    const waiters = run.waiters.get(path) ?? [];
    waiters.push(resolver);
    run.waiters.set(path, waiters);
    return { ended, cancel: () => this.#drop(runId, path, resolver) };
  }

  close(): void {
    for (const run of this.#runs.values()) run.subscription.unsubscribe();
    this.#runs.clear();
  }

  #run(runId: RunId): RunEnds {
    const existing = this.#runs.get(runId);
    if (existing !== undefined) return existing;
    const waiters = new Map<string, Array<(result: AgentResult) => void>>();
    const subscription = this.#events(runId).subscribe((event) => {
      if (event.type !== 'agent_end') return;
      const resolvers = waiters.get(event.agentPath);
      if (resolvers === undefined) return;
      waiters.delete(event.agentPath);
      for (const resolve of resolvers) resolve(event.result);
      this.#release(runId);
    });
    const run: RunEnds = { waiters, subscription };
    this.#runs.set(runId, run);
    return run;
  }

  #drop(runId: RunId, path: AgentPath, resolver: (result: AgentResult) => void): void {
    const run = this.#runs.get(runId);
    const resolvers = run?.waiters.get(path);
    if (run === undefined || resolvers === undefined) return;
    const remaining = resolvers.filter((r) => r !== resolver);
    if (remaining.length > 0) run.waiters.set(path, remaining);
    else run.waiters.delete(path);
    this.#release(runId);
  }

  #release(runId: RunId): void {
    const run = this.#runs.get(runId);
    if (run === undefined || run.waiters.size > 0) return;
    run.subscription.unsubscribe();
    this.#runs.delete(runId);
  }
}
