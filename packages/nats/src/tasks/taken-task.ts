import type { JsMsg } from '@nats-io/jetstream';
import type { AgentResult } from '@troupe/core';
import type { Logger } from '@troupe/runtime';
import type { HostedActor } from '@troupe/runtime';
import type { Task } from './task.js';

/** How a task message is settled: `leave` lets it be, for the process that already runs its actor to ack. */
export type Settlement = 'ack' | 'nak' | 'term' | 'leave';

/**
 * How a taken task ended, as the worker logs it: its actor ended `done`, `failed` or `aborted`,
 * or was set aside (`waiting` for a user); or the task was `handed_over` (the worker stopped),
 * `requeued` (never started), `left` to a live process running its actor, found `already_ended`,
 * `dead_lettered`, `refused` (another graph's), `failed` before its actor started, or `lost`: no
 * heartbeat was confirmed for an ack wait, so the task went back to the queue meanwhile.
 */
export type TaskOutcome =
  | 'done'
  | 'failed'
  | 'aborted'
  | 'waiting'
  | 'handed_over'
  | 'requeued'
  | 'left'
  | 'already_ended'
  | 'dead_lettered'
  | 'refused'
  | 'lost';

/** Options of {@link TakenTask}. */
export interface TakenTaskOptions {
  worker: string;
  ackWaitMs: number;
  logger: Logger | undefined;
  /** Told once, when the message is settled. */
  onSettled: () => void;
  /** Resolves once what was sent so far has reached the server (a round trip): confirms a heartbeat. */
  confirm?: () => Promise<void>;
  /**
   * With `onLost`: how long heartbeats may go unconfirmed (the connection is cut off) before the
   * task counts as lost — no less than the ack wait, after which the server puts it back for
   * another worker. Default: the ack wait.
   */
  lostAfterMs?: number;
  /**
   * Told once when the task is lost: another worker may run its actor by now, so this one must
   * stop it without finishing it. The task is then settled as `leave`.
   */
  onLost?: () => void;
}

/** The outcome of a task whose actor ended with `result`. */
export function outcomeOfResult(result: AgentResult): TaskOutcome {
  return result.stopReason === 'error' ? 'failed' : result.stopReason === 'aborted' ? 'aborted' : 'done';
}

/**
 * A task a worker took from the queue, until its message is settled: keeps it alive with
 * `working()` heartbeats every ack wait / 3, each confirmed by a round trip when `confirm` is
 * given — a task none of whose heartbeats was confirmed for `lostAfterMs` is `lost` — and logs at info when it was taken and how it ended
 * (run id, actor path, agent, duration, outcome).
 */
export class TakenTask {
  readonly msg: JsMsg;
  readonly task: Task;
  /** The worker's log, with the task's run id, actor path and agent. */
  readonly log: Logger | undefined;
  /** The actor hosted for it, once started. */
  actor: HostedActor | undefined;
  /** Settles when the task is acked, put back, dropped, or left to the process that runs it. */
  readonly done: Promise<void>;
  readonly #heartbeat: ReturnType<typeof setInterval>;
  readonly #takenAt = Date.now();
  readonly #onSettled: () => void;
  #settle!: () => void;
  #settled = false;
  /**
   * When the latest heartbeat known to have reached the server was sent. The server redelivers
   * an ack wait after the last heartbeat it got, which is no earlier than this one.
   */
  #confirmedAt = Date.now();
  #confirming = false;

  constructor(msg: JsMsg, task: Task, options: TakenTaskOptions) {
    this.msg = msg;
    this.task = task;
    this.#onSettled = options.onSettled;
    this.log = options.logger?.child({ worker: options.worker, runId: task.runId, path: task.path, agent: task.agent });
    this.done = new Promise<void>((resolve) => (this.#settle = resolve));
    this.#heartbeat = setInterval(() => this.#beat(options), Math.max(100, Math.floor(options.ackWaitMs / 3)));
    this.log?.info({ delivery: msg.info.deliveryCount }, 'task taken');
  }

  #beat(options: TakenTaskOptions): void {
    const { confirm, onLost, ackWaitMs } = options;
    const lostAfterMs = Math.max(ackWaitMs, options.lostAfterMs ?? ackWaitMs);
    if (onLost !== undefined && Date.now() - this.#confirmedAt > lostAfterMs) {
      // Timers run before pending socket reads: after the event loop stalled, a confirmation may
      // be waiting to be read. Judge once that I/O has been handled.
      setImmediate(() => {
        const unconfirmedMs = Date.now() - this.#confirmedAt;
        if (this.#settled || unconfirmedMs <= lostAfterMs) return;
        this.log?.warn({ unconfirmedMs, ackWaitMs }, 'task lost: its heartbeats went unconfirmed past the ack wait');
        onLost();
        this.finish('leave', 'lost');
      });
    }
    this.msg.working();
    if (confirm === undefined || this.#confirming) return;
    this.#confirming = true;
    const sentAt = Date.now();
    confirm()
      .then(
        () => (this.#confirmedAt = Math.max(this.#confirmedAt, sentAt)),
        () => undefined,
      )
      .finally(() => (this.#confirming = false));
  }

  /** Settles the message `how`, once, and logs the task's `outcome` (with `details`, such as the stop reason). */
  finish(how: Settlement, outcome: TaskOutcome, details: Record<string, unknown> = {}): void {
    if (this.#settled) return;
    this.#settled = true;
    clearInterval(this.#heartbeat);
    try {
      if (how === 'ack') this.msg.ack();
      else if (how === 'nak') this.msg.nak();
      else if (how === 'term') this.msg.term();
    } catch (error) {
      // The connection is gone: the task comes back after its ack wait, to resume from its checkpoint.
      this.log?.warn({ err: error, how }, 'could not settle a task');
    }
    this.log?.info({ ...details, outcome, durationMs: Date.now() - this.#takenAt }, 'task ended');
    this.#onSettled();
    this.#settle();
  }
}
