import type { ActorSlot } from './actor-slot.js';
import type { HibernationPolicy } from './hibernation.js';

/**
 * Decides when the actors of a host that wait for a user go to sleep (see {@link HibernationPolicy}):
 * once they have waited `afterMs`, or at once when more than `maxWaiting` are awake and waiting,
 * the one that has waited longest first. It only says when: `sleep` hibernates.
 */
export class Bedtimes {
  readonly #policy: HibernationPolicy;
  readonly #sleep: (slot: ActorSlot) => void;
  /** The actors awake and waiting for a user, the longest-waiting first (a Set keeps insertion order). */
  readonly #waiting = new Set<ActorSlot>();

  constructor(policy: HibernationPolicy, sleep: (slot: ActorSlot) => void) {
    this.#policy = policy;
    this.#sleep = sleep;
  }

  /** Follows `slot` as it starts waiting for a user (`waiting`) or goes on. */
  track(slot: ActorSlot, waiting: boolean): void {
    if (!waiting) {
      this.forget(slot);
      return;
    }
    if (this.#waiting.has(slot)) return;
    this.#waiting.add(slot);
    const { afterMs, maxWaiting } = this.#policy;
    if (afterMs !== undefined) {
      slot.bedtime = setTimeout(() => this.#due(slot), afterMs);
      // A waiting actor's bedtime is no reason to keep the process alive.
      slot.bedtime.unref?.();
    }
    if (maxWaiting !== undefined && this.#waiting.size > maxWaiting) {
      const longest = this.#waiting.values().next().value;
      if (longest !== undefined) this.#due(longest);
    }
  }

  /** Stops following `slot` (it goes on, or leaves the host). */
  forget(slot: ActorSlot): void {
    this.#waiting.delete(slot);
    clearTimeout(slot.bedtime);
    slot.bedtime = undefined;
  }

  /** Stops following every actor. */
  clear(): void {
    for (const slot of this.#waiting) clearTimeout(slot.bedtime);
    this.#waiting.clear();
  }

  #due(slot: ActorSlot): void {
    this.forget(slot);
    this.#sleep(slot);
  }
}
