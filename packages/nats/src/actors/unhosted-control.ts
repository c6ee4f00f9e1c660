import { TroupeError, type AgentPath, type RunId } from '@troupe/core';
import { RunErrorCode, RunStoreErrorCode, TransportErrorCode, type ControlCommand, type RunStore } from '@troupe/runtime';
import type { ActorRecord } from './actor-record.js';
import type { ActorRecords, StoredActorRecord } from './actor-records.js';
import type { Task } from '../tasks/task.js';
import { traceField } from '../tasks/trace-headers.js';
import { unclaimedChild } from './unclaimed-children.js';

/**
 * Control of an actor no process answers for, from its record: an actor set aside waiting for a
 * user (or whose host died while it waited) is woken as a task carrying the command; an abort of
 * one between hosts is noted in its record for whoever claims it next (for an unclaimed child,
 * which has no record yet, in a record made for it); an ended one takes only a new prompt.
 */
export class UnhostedControl {
  readonly #records: ActorRecords;
  readonly #store: RunStore;
  readonly #publish: (task: Task, id: string, graph?: string) => Promise<void>;

  /** `publish` queues a task for the workers of graph `graph` (default: the caller's graph). */
  constructor(records: ActorRecords, store: RunStore, publish: (task: Task, id: string, graph?: string) => Promise<void>) {
    this.#records = records;
    this.#store = store;
    this.#publish = publish;
  }

  /**
   * Control of an actor no process answers for. Resolves true when the command was dealt with,
   * false when the actor is between hosts and the caller should try again.
   */
  async control(runId: RunId, path: AgentPath, command: ControlCommand): Promise<boolean> {
    const stored = await this.#records.get(runId, path);
    if (stored === undefined) return this.#unclaimed(runId, path, command);
    const { record } = stored;
    switch (record.status) {
      case 'ended':
        if (command.type === 'abort') return true;
        if (command.type === 'prompt') return this.#wake(runId, stored, command);
        throw new TroupeError(TransportErrorCode.UnknownActor, `actor ${path} of run ${runId} has ended`);
      case 'waiting':
        assertAwaited(runId, path, record, command);
        if (await this.#wake(runId, stored, command)) return true;
        // An answer is a compare-and-set on the wait it read. The record moved since: unless it
        // still shows that wait (its host wrote it again), another answer took the wait first.
        if (isAnswer(command) && !(await this.#sameWait(runId, stored))) throw alreadyAnswered(runId, path);
        return false;
      case 'queued':
        if (record.answered === true && isAnswer(command)) throw alreadyAnswered(runId, path);
        if (command.type !== 'abort') return false;
        return this.#noteAbort(runId, stored);
      case 'running':
        if (command.type !== 'abort') return false;
        return this.#noteAbort(runId, stored);
    }
  }

  /** Whether the actor's record still shows it waiting for what `seen` showed. */
  async #sameWait(runId: RunId, seen: StoredActorRecord): Promise<boolean> {
    const now = (await this.#records.get(runId, seen.path))?.record;
    return now?.status === 'waiting' && JSON.stringify(now.pending) === JSON.stringify(seen.record.pending);
  }

  /** Notes an abort in the record of an actor between hosts, for whoever claims it next; false when its record moved meanwhile. */
  async #noteAbort(runId: RunId, stored: StoredActorRecord): Promise<boolean> {
    const { path, record } = stored;
    const noted = await this.#records.change(runId, path, (current) =>
      current?.revision === stored.revision ? { ...record, abortRequested: true, updatedAt: Date.now() } : undefined,
    );
    return noted !== undefined;
  }

  /**
   * An unclaimed child (still on the queue, no record): an abort goes into a record made for it
   * where none exists (an abort note, not a claim), unless a worker claims it first (then the caller tries again, and reaches it); other commands wait for its host.
   */
  async #unclaimed(runId: RunId, path: AgentPath, command: ControlCommand): Promise<boolean> {
    const child = await unclaimedChild(this.#store, runId, path);
    if (child === undefined) throw new TroupeError(TransportErrorCode.UnknownActor, `no actor ${path} in run ${runId}`);
    if (command.type !== 'abort') return false;
    const record: ActorRecord = { agent: child.agent, depth: child.depth, status: 'queued', abortRequested: true, updatedAt: Date.now() };
    return (await this.#records.createIfAbsent(runId, path, record)) !== undefined;
  }

  /**
   * The wake-up: queues a task that restores the actor from its snapshot and hands it `command`, for the
   * workers of the graph its record names, in the trace its record keeps (the task's headers; the
   * queued record keeps it too); false when its record moved meanwhile.
   */
  async #wake(runId: RunId, stored: StoredActorRecord, command: ControlCommand): Promise<boolean> {
    const { path, record } = stored;
    const trace = traceField(record.trace);
    const queued = await this.#records.change(runId, path, (current) =>
      current?.revision === stored.revision
        ? {
            agent: record.agent,
            depth: record.depth,
            status: 'queued',
            ...graphOf(record),
            ...trace,
            ...(isAnswer(command) ? { answered: true as const } : {}),
            updatedAt: Date.now(),
          }
        : undefined,
    );
    if (queued === undefined) return false;
    await this.#publish({ runId, path, agent: record.agent, depth: record.depth, command, ...trace }, `${runId}:${path}:${queued.revision}`, record.graph);
    return true;
  }
}

/** Refuses, before waking an actor, a reply or approval it does not wait for. */
function assertAwaited(runId: RunId, path: AgentPath, record: ActorRecord, command: ControlCommand): void {
  const pending = record.pending;
  if (command.type === 'reply' && pending?.kind !== 'question') {
    throw new TroupeError(RunErrorCode.NotWaiting, `actor ${path} of run ${runId} is not waiting for an answer`);
  }
  if (command.type === 'approve' && (pending?.kind !== 'permission' || pending.callId !== command.callId)) {
    throw new TroupeError(RunErrorCode.NotWaiting, `actor ${path} of run ${runId} is not waiting for a decision on ${command.callId}`);
  }
}

/** Whether `command` answers a wait (a reply or a permission decision). */
function isAnswer(command: ControlCommand): boolean {
  return command.type === 'reply' || command.type === 'approve';
}

/** The refusal of an answer to a wait that another answer took first. */
function alreadyAnswered(runId: RunId, path: AgentPath): TroupeError {
  return new TroupeError(
    RunStoreErrorCode.AlreadyAnswered,
    `actor ${path} of run ${runId} was already answered by another process, which woke it with its answer`,
    { data: { runId, path } },
  );
}

function graphOf(record: ActorRecord): Pick<ActorRecord, 'graph'> {
  return record.graph === undefined ? {} : { graph: record.graph };
}
