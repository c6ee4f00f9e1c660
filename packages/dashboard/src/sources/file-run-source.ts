import { join } from 'node:path';
import { isSnapshotActive, parseAgentPath, TroupeError, type AgentPath, type RunId } from '@troupe/core';
import {
  connectRunControl,
  createFileRunStore,
  hasEnded,
  runDirOf,
  serveRunControl,
  type Env,
  type Logger,
  type PendingAt,
  type RunRecord,
  type RunStore,
} from '@troupe/runtime';
import { DashboardError, DashboardErrorCode } from '../dashboard-error.js';
import { describeGraph } from '../graph-view.js';
import { RunFeed } from '../run-feed.js';
import { tailEventsFile } from './events-file-tail.js';
import { GraphHosts, storeRuntime } from './graph-host.js';
import { assertWaits, HostedRuns } from './hosted-runs.js';
import { assertNotEnded, checkpointedMessages } from './stored-run.js';
import type { RunAction, RunDetail, RunSource } from './run-source.js';

/** Options of {@link createFileRunSource}. */
export interface FileRunSourceOptions {
  /** The runs folder (`.troupe/runs`). */
  runsDir: string;
  /** The graph file runs are started from; without it the page only watches and answers. */
  graphFile?: string;
  /** Where providers read their keys and graphs their `${VARS}`. Default `process.env`. */
  env?: Env;
  logger: Logger;
  /** How often a run's events file is read while another process writes it. Default 200 ms. */
  pollMs?: number;
}

/**
 * The runs of a runs folder. A run started from the page runs in this process (recorded in the
 * folder, with its control socket, as `troupe run` does) and is followed through its `RunHandle`;
 * a run of another process is followed by reading its events file as it grows, steered and
 * aborted through its control socket; a run left waiting with no process is resumed here from its
 * checkpoints to take the answer, as `troupe approve` / `troupe reply` do.
 */
export function createFileRunSource(options: FileRunSourceOptions): RunSource {
  const { runsDir, logger } = options;
  const env = options.env ?? process.env;
  const store = createFileRunStore(runsDir);
  const hosts = new GraphHosts({ env, logger, factory: storeRuntime(store) });
  const hosted = new HostedRuns(logger);
  const feeds = new Map<string, RunFeed>();

  const record = async (id: RunId): Promise<RunRecord> => {
    const run = await store.getRun(id);
    if (run === undefined) throw new DashboardError(DashboardErrorCode.UnknownRun, `no run ${id} in ${runsDir}`);
    return run;
  };
  /** Hosts `handle` here, reachable by `troupe abort` and `troupe steer` through its control socket. */
  const host = (handle: Parameters<HostedRuns['add']>[0], runtime: Parameters<HostedRuns['add']>[1], started: boolean): void => {
    const serving = serveRunControl(handle, { runDir: runDirOf(runsDir, handle.id) }).catch((error: unknown) => {
      logger.warn({ err: error, run: handle.id }, 'the control socket could not be opened: troupe abort and troupe steer cannot reach this run');
      return undefined;
    });
    hosted.add(handle, runtime, { started, release: async () => (await serving)?.close() });
  };

  const source: RunSource = {
    kind: 'file',
    where: runsDir,
    listRuns: () => store.listRuns(),
    async detail(id) {
      const run = await record(id);
      const here = hosted.waiting(id);
      const waiting = here ?? (run.status === 'waiting' ? await storedWaiting(store, id) : []);
      return { run, waiting, placements: {}, ...(hosted.has(id) ? { host: 'this dashboard' } : {}) } satisfies RunDetail;
    },
    async feed(id) {
      const own = hosted.feed(id);
      if (own !== undefined) return own;
      let feed = feeds.get(id);
      if (feed !== undefined) return feed;
      await record(id);
      feed = new RunFeed();
      feeds.set(id, feed);
      const target = feed;
      const stop = tailEventsFile(join(runDirOf(runsDir, id), 'events.jsonl'), (event) => target.push(event), {
        pollMs: options.pollMs ?? 200,
        // Ended, or waiting with nobody running it: nothing more will be written until someone answers.
        ended: async () => {
          const now = await store.getRun(id);
          return now === undefined || (hasEnded(now.status) && !hosted.has(id));
        },
        onError: (error) => logger.warn({ err: error, run: id }, 'reading the events file failed'),
      });
      feed.onClose(stop);
      return feed;
    },
    async messages(id, path) {
      await record(id);
      return checkpointedMessages(store, id, path);
    },
    async act(id, action) {
      if (hosted.has(id)) return hosted.act(id, action);
      const run = await record(id);
      assertNotEnded(run);
      if (action.type === 'approve' || action.type === 'reply') return answerStored(run, action);
      return controlElsewhere(run, action);
    },
    async start(input) {
      if (options.graphFile === undefined) throw new DashboardError(DashboardErrorCode.NoGraph, 'start the dashboard with a graph file to start runs');
      const { runtime } = await hosts.get(options.graphFile);
      const handle = runtime.run(input);
      host(handle, runtime, true);
      return handle.id;
    },
    graph: async () => (options.graphFile === undefined ? undefined : describeGraph((await hosts.get(options.graphFile)).graph)),
    workers: async () => [],
    async close() {
      for (const feed of feeds.values()) feed.close();
      feeds.clear();
      await hosted.close();
      await hosts.close();
    },
  };

  /** A waiting run nobody runs: resumed here from its checkpoints, then answered (what `troupe approve` does). */
  async function answerStored(run: RunRecord, action: Extract<RunAction, { type: 'approve' | 'reply' }>): Promise<void> {
    const waiting = run.status === 'waiting' ? await storedWaiting(store, run.id) : [];
    if (action.type === 'approve') assertWaits(waiting, run.id, 'permission', action.callId, action.path);
    else assertWaits(waiting, run.id, 'question', undefined, action.path);
    if (run.graphFile === undefined) throw new DashboardError(DashboardErrorCode.NoGraph, `run ${run.id} does not say which graph file it ran`);
    const { runtime } = await hosts.get(run.graphFile);
    const handle = await runtime.resume(run.id);
    host(handle, runtime, false);
    try {
      await (action.type === 'approve' ? handle.approve(action.callId, action.decision, action.path) : handle.reply(action.answer, action.path));
    } catch (error) {
      // As `troupe approve` does: the run is left as it was.
      await store.updateRun(run.id, { status: 'waiting' });
      throw error;
    }
  }

  /** Steers, follows up or aborts (the run or one actor) a run of another process through its control socket; aborts a run nobody runs in the store. */
  async function controlElsewhere(run: RunRecord, action: Extract<RunAction, { type: 'steer' | 'followUp' | 'abort' }>): Promise<void> {
    const control = await connectRunControl(runDirOf(runsDir, run.id));
    if (control === undefined) {
      if (action.type !== 'abort')
        throw new DashboardError(DashboardErrorCode.Unsupported, `run ${run.id} is ${run.status} and no process runs it: nothing to steer`);
      if (run.status === 'running')
        throw new DashboardError(DashboardErrorCode.Unsupported, `run ${run.id} runs in a process that does not answer on its control socket`);
      // As `troupe abort` does for a run nobody runs: end what its tools left running, then record it aborted.
      await store.processes?.reap(run.id);
      await store.updateRun(run.id, { status: 'aborted', stopReason: 'aborted', endedAt: Date.now() });
      return;
    }
    try {
      const at = action.path === undefined ? {} : { path: action.path };
      const answer = await control.request(
        action.type === 'abort'
          ? action.path === undefined || action.path === run.entry
            ? { type: 'abort' }
            : { type: 'abortActor', path: action.path }
          : { type: action.type, message: action.message, ...at },
      );
      if (answer.ok) return;
      // A process of an older troupe knows only a steer and an abort of the run.
      if (answer.error.code === 'bad_request' && answer.error.message.startsWith('unknown request type'))
        throw new DashboardError(
          DashboardErrorCode.Unsupported,
          `run ${run.id} runs in another process, of an older troupe, whose control socket takes a steer or a whole-run abort only`,
        );
      throw new TroupeError(answer.error.code, answer.error.message);
    } finally {
      control.close();
    }
  }

  return source;
}

/** What the actors of a stored waiting run wait for, from their latest checkpoints (what `resume` restores). */
async function storedWaiting(store: RunStore, id: RunId): Promise<PendingAt[]> {
  const snapshots = await store.loadSnapshots(id);
  return snapshots.flatMap((s) =>
    !isSnapshotActive(s) || s.context.pending === null ? [] : [{ path: parseAgentPath(s.agentPath) as AgentPath, input: s.context.pending }],
  );
}
