/** A counting semaphore: `take` waits for one of `size` slots; `give` hands one back (to the longest waiter first). */
export class Slots {
  readonly size: number;
  #free: number;
  readonly #waiters: Array<() => void> = [];

  constructor(size: number) {
    this.size = size;
    this.#free = size;
  }

  /** Slots free now. */
  get free(): number {
    return this.#free;
  }

  /** Slots in use. */
  get used(): number {
    return this.size - this.#free;
  }

  take(): Promise<void> {
    if (this.#free > 0) {
      this.#free -= 1;
      return Promise.resolve();
    }
    return new Promise((resolve) => this.#waiters.push(resolve));
  }

  /** Takes a slot if one is free now, without waiting. */
  tryTake(): boolean {
    if (this.#free === 0) return false;
    this.#free -= 1;
    return true;
  }

  give(): void {
    const next = this.#waiters.shift();
    if (next !== undefined) next();
    else this.#free = Math.min(this.size, this.#free + 1);
  }

  /** Wakes every waiter without a slot (they must check why they woke): used to stop. */
  wakeAll(): void {
    for (const waiter of this.#waiters.splice(0)) waiter();
  }
}
