import type { RunStore } from '../store/run-store.js';
import type { ActorSlot } from './actor-slot.js';

/**
 * Writes hosted actors' checkpoints to the store: once per actor at the end of a tick however many
 * reasons arrive meanwhile (`schedule`), or at once when something must wait for the actor's state
 * to be stored (`stored`). Each actor's last write is its slot's `saved`; a write that fails is
 * reported and leaves the slot `unsaved` (its stored checkpoint is stale).
 */
export class CheckpointWriter {
  readonly #store: RunStore;
  readonly #onError: ((error: unknown) => void) | undefined;

  constructor(store: RunStore, onError: ((error: unknown) => void) | undefined) {
    this.#store = store;
    this.#onError = onError;
  }

  /** Checkpoints `slot` at the end of this tick, once. */
  schedule(slot: ActorSlot): void {
    if (slot.due) return;
    slot.due = true;
    queueMicrotask(() => this.#write(slot));
  }

  /** Resolves once `slot`'s state as of now is stored: written at once (the checkpoint due this tick, if any, with it). */
  stored(slot: ActorSlot): Promise<void> {
    slot.due = true;
    this.#write(slot);
    return slot.saved;
  }

  #write(slot: ActorSlot): void {
    if (!slot.due) return;
    slot.due = false;
    const { mark, ...checkpoint } = slot.agent.checkpoint(slot.mark);
    slot.mark = mark;
    slot.saved = this.#store.saveCheckpoint(slot.request.runId, checkpoint).then(
      () => {
        slot.unsaved = false;
      },
      (error: unknown) => {
        slot.unsaved = true;
        this.#onError?.(error);
      },
    );
  }
}
