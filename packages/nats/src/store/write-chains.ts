/**
 * Keeps writes in call order per key while writes to different keys run at once: a run's
 * checkpoints of one actor stay ordered without holding up its delegation records or another
 * actor's checkpoints. Keys are tuples (`[runId, 'checkpoint', path]`); {@link settled} waits for
 * every write under a prefix (`[runId]`, or `[runId, 'child']`).
 */
export class WriteChains {
  readonly #chains = new Map<string, Promise<void>>();

  /** Queues `write` after the earlier writes of `key`; a failed write does not block later ones. */
  chain(key: readonly string[], write: () => Promise<void>): Promise<void> {
    const id = key.join('\n');
    const next = (this.#chains.get(id) ?? Promise.resolve()).then(write);
    const settled = next.catch(() => undefined);
    this.#chains.set(id, settled);
    void settled.then(() => this.#chains.get(id) === settled && this.#chains.delete(id));
    return next;
  }

  /** Resolves once every write queued so far under `prefix` has settled. */
  async settled(prefix: readonly string[]): Promise<void> {
    const start = prefix.join('\n');
    const pending = [...this.#chains].filter(([id]) => id === start || id.startsWith(`${start}\n`)).map(([, chain]) => chain);
    await Promise.all(pending);
  }
}
