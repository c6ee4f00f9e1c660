import type { Consumer, ConsumerMessages, JsMsg } from '@nats-io/jetstream';
import type { Slots } from './slots.js';

/** What a {@link TaskPump} takes tasks from, and how it runs them. */
export interface TaskPumpOptions {
  /** The agent's durable consumer on the tasks stream. */
  consumer: Consumer;
  /**
   * Ensures the consumer again after a pull failed: the server removes a consumer left without a
   * pull for long (a worker whose slots were all busy), and the pump goes on with the new one.
   */
  renew?(): Promise<Consumer>;
  /** The worker's slots, shared by the pumps of all its agents. */
  slots: Slots;
  /** The agent's own slots, when its `concurrency` is limited. */
  own?: Slots;
  /** Runs the task `msg` once `slot` resolves (from then on it holds a slot); settles when the task is settled. */
  run(msg: JsMsg, slot: Promise<void>): Promise<void>;
  /** A pull that failed (it is made again after a pause). */
  onError(error: unknown): void;
}

/** The most tasks one pull asks for. */
const PULL_BATCH = 16;
/** How long a pull waits for tasks before it is made again. */
const PULL_EXPIRES_MS = 2000;
const RETRY_PAUSE_MS = 500;

/**
 * Takes one agent's tasks while the worker has free slots, until stopped. A pull is made holding
 * one slot (so an agent with no tasks keeps one slot for its waiting pull, as a Temporal poller
 * does) and asks for as many tasks as there are slots free at that moment, up to
 * {@link PULL_BATCH}. Each task starts as it arrives, in a slot free by then or, when other pulls
 * took them meanwhile, once one frees: a worker never runs more tasks at once than its slots, and
 * a stream of short tasks costs one pull request per batch instead of one per task.
 */
export class TaskPump {
  /** Settles once the pump has stopped pulling. */
  readonly done: Promise<void>;
  readonly #options: TaskPumpOptions;
  #consumer: Consumer;
  #pull: ConsumerMessages | undefined;
  #stopped = false;

  constructor(options: TaskPumpOptions) {
    this.#options = options;
    this.#consumer = options.consumer;
    this.done = this.#loop();
  }

  /** Stops pulling; a task that arrives from now on goes back to the queue at once. */
  stop(): void {
    this.#stopped = true;
    this.#pull?.stop();
    this.#options.own?.wakeAll();
  }

  async #loop(): Promise<void> {
    const { slots, own } = this.#options;
    while (!this.#stopped) {
      await this.#acquire();
      let held = true;
      const max = Math.min(PULL_BATCH, 1 + slots.free, 1 + (own?.free ?? PULL_BATCH));
      try {
        if (!this.#stopped) {
          await this.#pullUpTo(max, (msg) => {
            const slot = held || this.#tryAcquire() ? Promise.resolve() : this.#acquire();
            held = false;
            void this.#options.run(msg, slot).finally(() => void slot.then(() => this.#release()));
          });
        }
      } catch (error) {
        this.#options.onError(error);
        await new Promise((resolve) => setTimeout(resolve, RETRY_PAUSE_MS));
        await this.#renew();
      }
      if (held) this.#release();
    }
  }

  /** Pulls up to `max` tasks, handing each to `start` as it arrives, until `max` came, the pull expired, or the pump stops. */
  async #pullUpTo(max: number, start: (msg: JsMsg) => void): Promise<void> {
    const pull = await this.#consumer.fetch({ max_messages: max, expires: PULL_EXPIRES_MS });
    this.#pull = pull;
    if (this.#stopped) pull.stop();
    for await (const msg of pull) {
      // A task that arrives as the worker begins stopping goes straight back.
      if (this.#stopped) msg.nak();
      else start(msg);
    }
  }

  async #renew(): Promise<void> {
    if (this.#stopped || this.#options.renew === undefined) return;
    try {
      this.#consumer = await this.#options.renew();
    } catch (error) {
      this.#options.onError(error);
    }
  }

  async #acquire(): Promise<void> {
    await this.#options.slots.take();
    await this.#options.own?.take();
  }

  #tryAcquire(): boolean {
    const { slots, own } = this.#options;
    if (!slots.tryTake()) return false;
    if (own === undefined || own.tryTake()) return true;
    slots.give();
    return false;
  }

  #release(): void {
    this.#options.slots.give();
    this.#options.own?.give();
  }
}
