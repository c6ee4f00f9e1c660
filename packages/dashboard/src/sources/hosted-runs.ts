import { parseAgentPath, type RunId } from '@troupe/core';
import type { Logger, PendingAt, RunHandle, Runtime } from '@troupe/runtime';
import { DashboardError, DashboardErrorCode } from '../dashboard-error.js';
import { RunFeed } from '../run-feed.js';
import type { RunAction } from './run-source.js';

/** A run this process runs: started from the page, or resumed here to deliver an answer. */
interface HostedRun {
  handle: RunHandle;
  runtime: Runtime;
  /** Its events from its handle (runs started here: the handle saw every one of them). */
  feed?: RunFeed;
  ended: boolean;
  /** Ends what the run opened for other processes (its control socket). */
  release(): Promise<void>;
}

/**
 * The runs this dashboard process hosts, and the actions on them through their `RunHandle`: the
 * same calls `troupe run` makes on its own run.
 */
export class HostedRuns {
  readonly #runs = new Map<string, HostedRun>();
  readonly #logger: Logger;

  constructor(logger: Logger) {
    this.#logger = logger;
  }

  /**
   * Adds a run just started (`started`: its events are followed through its handle from the
   * first) or resumed here. `release` is called once it ends or the dashboard closes.
   */
  add(handle: RunHandle, runtime: Runtime, options: { started: boolean; release?: () => Promise<void> }): void {
    const hosted: HostedRun = { handle, runtime, ended: false, release: options.release ?? (async () => undefined) };
    if (options.started) {
      const feed = new RunFeed();
      const subscription = handle.events$.subscribe((event) => feed.push(event));
      feed.onClose(() => subscription.unsubscribe());
      hosted.feed = feed;
    }
    this.#runs.set(handle.id, hosted);
    handle.result
      .catch((error: unknown) => this.#logger.error({ err: error, run: handle.id }, 'the run failed in the runtime'))
      .finally(() => {
        hosted.ended = true;
        void hosted.release().catch(() => undefined);
      });
  }

  /** The feed of a run started here, followed through its handle. */
  feed(id: RunId): RunFeed | undefined {
    return this.#runs.get(id)?.feed;
  }

  /** Whether this process runs `id` now. */
  has(id: RunId): boolean {
    const run = this.#runs.get(id);
    return run !== undefined && !run.ended;
  }

  /** What the actors of a run hosted here wait for. */
  waiting(id: RunId): PendingAt[] | undefined {
    const run = this.#runs.get(id);
    return run === undefined || run.ended ? undefined : run.handle.waiting;
  }

  /** Acts on a run hosted here; a decision or answer nobody waits for is `stale_request`, and changes nothing. */
  async act(id: RunId, action: RunAction): Promise<void> {
    const run = this.#runs.get(id);
    if (run === undefined || run.ended) throw new DashboardError(DashboardErrorCode.RunEnded, `run ${id} has ended: there is nothing to act on`);
    const { handle } = run;
    switch (action.type) {
      case 'approve':
        assertWaits(handle.waiting, id, 'permission', action.callId, action.path);
        return handle.approve(action.callId, action.decision, action.path);
      case 'reply':
        assertWaits(handle.waiting, id, 'question', undefined, action.path);
        return handle.reply(action.answer, action.path);
      case 'steer':
        return handle.steer(action.message, action.path);
      case 'followUp':
        return handle.followUp(action.message, action.path);
      case 'abort':
        // One actor and its subtree, or (at the entry) the whole run.
        return action.path === undefined ? handle.abort() : handle.abortActor(parseAgentPath(action.path));
    }
  }

  /** Aborts the runs hosted here that are running (a run left waiting stays so in the store), and waits for them to end. */
  async close(): Promise<void> {
    const runs = [...this.#runs.values()];
    this.#runs.clear();
    await Promise.all(
      runs.map(async (run) => {
        run.feed?.close();
        if (!run.ended && run.handle.status === 'running') {
          await run.handle.abort().catch(() => undefined);
          await run.handle.result.catch(() => undefined);
        }
        await run.release().catch(() => undefined);
      }),
    );
  }
}

/**
 * Throws `stale_request` unless an actor (at `path`, when given) waits for this kind of input
 * (with call `callId`, when given): an approval answered meanwhile from another page or a terminal.
 */
export function assertWaits(waiting: readonly PendingAt[], id: RunId, kind: 'permission' | 'question', callId?: string, path?: string): void {
  const found = waiting.some((p) => p.input.kind === kind && (callId === undefined || p.input.callId === callId) && (path === undefined || p.path === path));
  if (found) return;
  const what = kind === 'permission' ? `a decision on ${callId ?? 'a call'}` : 'an answer';
  const now = waiting.map((p) => `${p.path} (${p.input.kind} ${p.input.callId})`).join(', ');
  throw new DashboardError(
    DashboardErrorCode.Stale,
    `no actor of run ${id}${path === undefined ? '' : ` at ${path}`} waits for ${what} any more${now === '' ? '' : `; waiting: ${now}`}`,
  );
}
