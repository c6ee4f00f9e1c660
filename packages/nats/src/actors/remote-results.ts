import { TroupeError, type AgentEvent, type AgentPath, type AgentResult, type RunId } from '@troupe/core';
import type { Observable } from 'rxjs';
import { TransportErrorCode, type RunStore } from '@troupe/runtime';
import type { ActorRecords } from './actor-records.js';
import { EndEvents } from '../events/end-events.js';
import { unclaimedChild } from './unclaimed-children.js';

/** How long a result waits for the actor's `agent_end` event before it also watches the actor's record. */
const RECORD_WATCH_DELAY_MS = 250;

/** An actor being spawned from here, listened for before its task can be taken. */
export interface Spawning {
  /** The task is out; `revision` is the actor's record as the spawn wrote it (0: none). */
  spawned(revision: number): void;
  /** The spawn failed. */
  cancel(): void;
}

/**
 * The results of actors that run elsewhere (on a worker, or in another process): from the
 * actor's `agent_end` event among the run's events or from its record, whichever comes first (the
 * record also covers an end that came before anyone asked, or during a reconnect). An actor with
 * no record is waited for only while it is a child still on the task queue (its child record
 * says so); otherwise it is unknown.
 */
export class RemoteResults {
  readonly #records: ActorRecords;
  readonly #store: RunStore;
  readonly #ends: EndEvents;
  /** Each actor spawned here whose result nobody asked for yet: its record's revision, and the wait for its end event. */
  readonly #spawned = new Map<string, { revision: number; end: ReturnType<EndEvents['next']> }>();

  /** `events` follows a run's events (the transport's shared subscription). */
  constructor(records: ActorRecords, store: RunStore, events: (runId: RunId) => Observable<AgentEvent>) {
    this.#records = records;
    this.#store = store;
    this.#ends = new EndEvents(events);
  }

  /** Listens for the end of an actor about to be spawned: a child answering at once may end before its task's publish is acknowledged. */
  spawning(runId: RunId, path: AgentPath): Spawning {
    const end = this.#ends.next(runId, path);
    return {
      // Whoever asks for its result next need not read the record back, nor listen again.
      spawned: (revision) => void this.#spawned.set(`${runId}\n${path}`, { revision, end }),
      cancel: () => end.cancel(),
    };
  }

  /** The actor's result; rejects with `unknown_actor` when nothing says it exists. */
  async of(runId: RunId, path: AgentPath): Promise<AgentResult> {
    const key = `${runId}\n${path}`;
    const spawned = this.#spawned.get(key);
    this.#spawned.delete(key);
    const end = spawned?.end ?? this.#ends.next(runId, path);
    let after = spawned?.revision;
    if (after === undefined) {
      const stored = await this.#records.get(runId, path);
      if (stored?.record.status === 'ended' && stored.record.result !== undefined) {
        end.cancel();
        return stored.record.result;
      }
      // No record: a child on the queue that no worker has claimed yet, or no actor at all.
      if (stored === undefined && (await unclaimedChild(this.#store, runId, path)) === undefined) {
        end.cancel();
        throw new TroupeError(TransportErrorCode.UnknownActor, `no actor ${path} in run ${runId}`);
      }
      after = stored?.revision ?? 0;
    }
    // The record is watched only when the event is late (it came before we listened, or the connection dropped).
    let timer: ReturnType<typeof setTimeout> | undefined;
    const recorded = new Promise<AgentResult>((resolve) => {
      timer = setTimeout(() => void this.#records.ended(runId, path, after).then(resolve), RECORD_WATCH_DELAY_MS);
    });
    const result = await Promise.race([end.ended, recorded]);
    clearTimeout(timer);
    end.cancel();
    return result;
  }

  close(): void {
    this.#ends.close();
  }
}
