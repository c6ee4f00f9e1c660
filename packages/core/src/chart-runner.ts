/**
 * Runs the agent statechart from its compiled tables (see `compiled-chart.ts`): the actor an
 * `Agent` sends its events to.
 *
 * It keeps XState's actor semantics where the agent relies on them: events sent while one is being
 * processed (by the observer, or by an effect answering at once) wait in a mailbox and are taken in
 * order after it; an event no transition takes changes nothing and notifies no one; a delayed
 * (`after`) transition is armed on the runner's clock when its state is entered and cancelled when
 * it is exited or the runner stops; an exception in a transition stops the runner in error and is
 * reported to `crashed` once, after which events are ignored; an exception thrown by the observer is
 * rethrown on a timer, as XState reports it, so it cannot corrupt the mailbox.
 */
import type { StateValue } from 'xstate';
import type { Clock, TimerHandle } from './clock.js';
import type { ChartLeaf, ChartTimer, ChartTransition } from './compiled-chart.js';
import type { AgentContext, AgentMachineEvent, MachineOutput } from './machine-types.js';

/** Who is told of each transition taken (its outbox) and of a crash. */
export interface ChartObserver {
  transitioned(outbox: MachineOutput[]): void;
  crashed(error: unknown): void;
}

export class ChartRunner {
  readonly #clock: Clock;
  readonly #observer: ChartObserver;
  #leaf: ChartLeaf;
  #context: AgentContext;
  #status: 'running' | 'stopped' | 'error' = 'running';
  /** Events waiting while one is processed; `#next` is the first not taken yet. */
  #mailbox: AgentMachineEvent[] = [];
  #next = 0;
  #processing = false;
  /** Armed timers by event type (created on first use: most agents never arm one). */
  #timers: Map<string, TimerHandle> | undefined;

  constructor(leaf: ChartLeaf, context: AgentContext, clock: Clock, observer: ChartObserver) {
    this.#leaf = leaf;
    this.#context = context;
    this.#clock = clock;
    this.#observer = observer;
  }

  /** The state value, as XState writes it (`"idle"`, `{ thinking: "retrying" }`). */
  get value(): StateValue {
    return this.#leaf.value;
  }

  get context(): AgentContext {
    return this.#context;
  }

  /** Takes `event` now, or after the event being processed (and those queued before it). */
  send(event: AgentMachineEvent): void {
    if (this.#status !== 'running') return;
    if (this.#processing) {
      this.#mailbox.push(event);
      return;
    }
    this.#processing = true;
    try {
      this.#take(event);
      while (this.#next < this.#mailbox.length && this.#status === 'running') {
        const queued = this.#mailbox[this.#next++] as AgentMachineEvent;
        this.#take(queued);
      }
    } finally {
      this.#mailbox.length = 0;
      this.#next = 0;
      this.#processing = false;
    }
  }

  /** Stops: armed timers are cancelled, queued and later events dropped. */
  stop(): void {
    if (this.#status === 'running') this.#status = 'stopped';
    this.#cancelAll();
  }

  #take(event: AgentMachineEvent): void {
    let outbox: MachineOutput[];
    try {
      const transition = this.#select(event);
      if (transition === undefined) return;
      outbox = this.#apply(transition, event);
    } catch (error) {
      this.#status = 'error';
      this.#cancelAll();
      this.#observer.crashed(error);
      return;
    }
    try {
      this.#observer.transitioned(outbox);
    } catch (error) {
      globalThis.setTimeout(() => {
        throw error;
      });
    }
  }

  #select(event: AgentMachineEvent): ChartTransition | undefined {
    const candidates = this.#leaf.transitions.get(event.type);
    if (candidates === undefined) return undefined;
    const context = this.#context;
    for (const candidate of candidates) if (candidate.guard === undefined || candidate.guard(context, event)) return candidate;
    return undefined;
  }

  /** Exits, assigns, enters, in XState's order: timers are armed with the context the transition left. */
  #apply(transition: ChartTransition, event: AgentMachineEvent): MachineOutput[] {
    for (const timer of transition.cancels) this.#cancel(timer);
    if (transition.reduce !== undefined) this.#context = Object.assign({}, this.#context, transition.reduce(this.#context, event));
    if (transition.target !== undefined) this.#leaf = transition.target;
    for (const timer of transition.arms) this.#arm(timer, event);
    return this.#context.outbox;
  }

  #arm(timer: ChartTimer, entering: AgentMachineEvent): void {
    this.#timers ??= new Map();
    const { eventType } = timer;
    const handle = this.#clock.setTimeout(
      () => {
        this.#timers?.delete(eventType);
        this.send({ type: eventType } as unknown as AgentMachineEvent);
      },
      timer.delay(this.#context, entering),
    );
    this.#timers.set(eventType, handle);
  }

  #cancel(timer: ChartTimer): void {
    const handle = this.#timers?.get(timer.eventType);
    if (handle === undefined) return;
    this.#clock.clearTimeout(handle);
    this.#timers?.delete(timer.eventType);
  }

  #cancelAll(): void {
    if (this.#timers === undefined) return;
    for (const handle of this.#timers.values()) this.#clock.clearTimeout(handle);
    this.#timers.clear();
  }
}
