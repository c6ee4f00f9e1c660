import { parseAgentPath, type AgentPath, type RunId } from '@troupe/core';
import { TransportErrorCode, type ControlCommand, type Env, type Logger, type RunRecord } from '@troupe/runtime';
import {
  createNatsRunStore,
  createNatsRuntime,
  followRunEvents,
  listWorkers,
  remoteOnlyTransport,
  runGraphHash,
  waitingOf,
  type NatsResources,
  type NatsTransport,
  type StoredActorRecord,
} from '@troupe/nats';
import { TroupeError } from '@troupe/core';
import { DashboardError, DashboardErrorCode } from '../dashboard-error.js';
import { describeGraph } from '../graph-view.js';
import { RunFeed } from '../run-feed.js';
import { GraphHosts } from './graph-host.js';
import { assertWaits, HostedRuns } from './hosted-runs.js';
import { assertNotEnded, checkpointedMessages } from './stored-run.js';
import type { RunAction, RunSource } from './run-source.js';

/** Options of {@link createNatsRunSource}. */
export interface NatsRunSourceOptions {
  /** The namespace's streams and buckets, on a connection the caller opened (and closes after the source). */
  resources: NatsResources;
  namespace: string;
  /** Names the NATS servers, secrets masked, for messages. */
  display: string;
  /** The graph file runs are started from. */
  graphFile?: string;
  env?: Env;
  logger: Logger;
}

/**
 * The runs of a NATS namespace: listed from its run records, followed through its event stream
 * (a run started from the page, through its `RunHandle`), acted on through the actors' control
 * subjects wherever they run (an actor put aside waiting for a user is woken on a worker to take
 * the answer), as `troupe watch|approve|reply|steer|abort --nats` do. Runs started from the page
 * run here with the graph's placement: `placement: remote` agents on the namespace's workers.
 */
export function createNatsRunSource(options: NatsRunSourceOptions): RunSource {
  const { resources, namespace, logger } = options;
  const env = options.env ?? process.env;
  const store = createNatsRunStore(resources);
  const hostId = `dashboard-${process.pid}`;
  const hosts = new GraphHosts({ env, logger, factory: (graph, build) => createNatsRuntime({ ...build, graph, resources, hostId }).runtime });
  const hosted = new HostedRuns(logger);
  const feeds = new Map<string, RunFeed>();
  /** Reads records and sends control messages; hosts nothing. Its graph stamps the tasks that wake a waiting actor. */
  const controls = new Map<string, NatsTransport>();
  const controlFor = async (run: RunRecord): Promise<NatsTransport> => {
    const hash = (await runGraphHash(resources, namespace, run, env).catch(() => undefined)) ?? '';
    let transport = controls.get(hash);
    if (transport === undefined) {
      transport = remoteOnlyTransport(resources, store, hash, `${hostId}-control`);
      controls.set(hash, transport);
    }
    return transport;
  };
  const reader = remoteOnlyTransport(resources, store, '', `${hostId}-reader`);
  controls.set('', reader);

  /** The host each actor was last seen running on: an ended actor's record no longer names it. */
  const hostsSeen = new Map<string, Map<string, string>>();
  const ranOn = (id: RunId): Map<string, string> => {
    let seen = hostsSeen.get(id);
    if (seen === undefined) {
      seen = new Map();
      hostsSeen.set(id, seen);
    }
    return seen;
  };

  const record = async (id: RunId): Promise<RunRecord> => {
    const run = await store.getRun(id);
    if (run === undefined) throw new DashboardError(DashboardErrorCode.UnknownRun, `no run ${id} in namespace "${namespace}" on NATS at ${options.display}`);
    return run;
  };

  return {
    kind: 'nats',
    where: `namespace "${namespace}" on NATS at ${options.display}`,
    listRuns: () => store.listRuns(),
    async detail(id) {
      const run = await record(id);
      const records = await reader.records.list(id);
      return {
        run,
        waiting: hosted.waiting(id) ?? waitingOf(records),
        placements: placementsOf(records, ranOn(id)),
        ...(hosted.has(id) ? { host: 'this dashboard' } : {}),
      };
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
      const subscription = followRunEvents(resources, id).subscribe({
        next: (event) => target.push(event),
        error: (error: unknown) => {
          logger.warn({ err: error, run: id }, 'following the run events failed');
          // The next page that asks follows the stream again.
          feeds.delete(id);
        },
      });
      feed.onClose(() => subscription.unsubscribe());
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
      const transport = await controlFor(run);
      const { path, command } = await target(run, action, transport);
      try {
        await transport.control(id, path, command);
      } catch (error) {
        // The entry ended meanwhile, or lives in no process any more: abort what still runs, as `troupe abort` does.
        if (action.type !== 'abort' || action.path !== undefined || !(error instanceof TroupeError && error.code === TransportErrorCode.UnknownActor))
          throw error;
        const live = (await transport.records.list(id)).filter(({ record: r }) => r.status !== 'ended');
        for (const actor of live) await transport.control(id, actor.path, { type: 'abort' }).catch(() => undefined);
      }
    },
    graph: async () => (options.graphFile === undefined ? undefined : describeGraph((await hosts.get(options.graphFile)).graph)),
    async start(input) {
      if (options.graphFile === undefined) throw new DashboardError(DashboardErrorCode.NoGraph, 'start the dashboard with a graph file to start runs');
      const { runtime } = await hosts.get(options.graphFile);
      const handle = runtime.run(input);
      hosted.add(handle, runtime, { started: true });
      return handle.id;
    },
    workers: async () =>
      (await listWorkers(resources.nc, namespace, { maxWaitMs: 1000 })).map(({ id, agents, graph, ...load }) => ({ id, agents, graph, load })),
    async close() {
      for (const feed of feeds.values()) feed.close();
      feeds.clear();
      await hosted.close();
      await hosts.close();
      await Promise.all([...controls.values()].map((transport) => transport.close().catch(() => undefined)));
      controls.clear();
    },
  };
}

/** Which actor an action goes to, and the control message that carries it; a decision or answer nobody waits for is stale. */
async function target(run: RunRecord, action: RunAction, transport: NatsTransport): Promise<{ path: AgentPath; command: ControlCommand }> {
  const at = (path: string | undefined): AgentPath => parseAgentPath(path ?? run.entry);
  switch (action.type) {
    case 'approve':
    case 'reply': {
      const waiting = waitingOf(await transport.records.list(run.id));
      const kind = action.type === 'approve' ? 'permission' : 'question';
      assertWaits(waiting, run.id, kind, action.type === 'approve' ? action.callId : undefined, action.path);
      const found = waiting.filter((p) => p.input.kind === kind && (action.path === undefined || p.path === action.path));
      const chosen = action.type === 'approve' ? found.find((p) => p.input.callId === action.callId) : found[0];
      if (chosen === undefined || (action.type === 'reply' && found.length > 1))
        throw new DashboardError(DashboardErrorCode.BadRequest, `several actors wait for an answer: ${found.map((p) => p.path).join(', ')}; say which path`);
      return {
        path: chosen.path,
        command: action.type === 'approve' ? { type: 'approve', callId: action.callId, decision: action.decision } : { type: 'reply', answer: action.answer },
      };
    }
    case 'steer':
    case 'followUp':
      return { path: at(action.path), command: { type: action.type, message: action.message } };
    case 'abort':
      return { path: at(action.path), command: { type: 'abort' } };
  }
}

/**
 * Where each actor stands and runs, by its record: `running on worker-1a2b`, `waiting`, `queued`,
 * `ended (ran on worker-1a2b)` when it was seen running (`seen` remembers it).
 */
function placementsOf(records: readonly StoredActorRecord[], seen: Map<string, string>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const { path, record } of records) {
    if (record.host !== undefined) seen.set(path, record.host);
    const host = seen.get(path);
    out[path] = record.host !== undefined ? `${record.status} on ${record.host}` : host === undefined ? record.status : `${record.status} (ran on ${host})`;
  }
  return out;
}
