import { Observable, Subject } from 'rxjs';
import type { AgentEvent, AgentEventPayload } from './events.js';
import type { AgentPath, RunId } from './ids.js';

/**
 * Where an agent's events go out: stamps the envelope on each payload (run id, path, a `seq` that
 * strictly increases, the clock's time) and hands it to subscribers. With `keepRunEvents` it keeps
 * the current run's events, so a late subscriber gets them first and then follows live.
 *
 * The subject behind `events$` is made by the first subscription: a short-lived agent nobody
 * listens to (a sub-agent whose caller only wants its result) pays for no rxjs machinery.
 */
export class EventStream {
  #subject: Subject<AgentEvent> | undefined;
  #completed = false;
  readonly #keep: boolean;
  #kept: AgentEvent[] = [];
  #seq: number;

  /** The events, live (and, when kept, the current run's earlier ones first). */
  readonly events$: Observable<AgentEvent>;

  constructor(options: { keepRunEvents: boolean; seq: number }) {
    this.#keep = options.keepRunEvents;
    this.#seq = options.seq;
    this.events$ = new Observable<AgentEvent>((subscriber) => {
      for (const event of this.#kept) subscriber.next(event);
      // As a completed subject would: a subscriber after the end is completed at once.
      if (this.#completed) {
        subscriber.complete();
        return undefined;
      }
      this.#subject ??= new Subject<AgentEvent>();
      return this.#subject.subscribe(subscriber);
    });
  }

  /** The `seq` of the last event published. */
  get seq(): number {
    return this.#seq;
  }

  /** A new run begins: the kept events are dropped. */
  newRun(): void {
    this.#kept = [];
  }

  /** Stamps the envelope on `payload` (in place) and publishes it. */
  publish(payload: AgentEventPayload, runId: RunId, agentPath: AgentPath, ts: number): AgentEvent {
    const event = payload as AgentEvent;
    event.runId = runId;
    event.agentPath = agentPath;
    event.seq = ++this.#seq;
    event.ts = ts;
    if (this.#keep) this.#kept.push(event);
    this.#subject?.next(event);
    return event;
  }

  /** Completes `events$`. */
  complete(): void {
    this.#completed = true;
    this.#subject?.complete();
  }
}
