import type { RunId } from '@troupe/core';
import { createFileRunStore, type RunStore } from '@troupe/runtime';
import type { NatsRunStore, NatsTransport, StoredActorRecord } from '@troupe/nats';
import type { CliIo } from '../cli-io.js';
import type { ExitCode } from '../exit-code.js';
import { runsDirFlag } from '../commands/runs-dir-flag.js';
import { natsTargetOf, type NatsFlags } from './nats-flags.js';
import { withNatsSession, type NatsSession } from './nats-session.js';
import { isFinal } from './run-control.js';
import { workerCommandFor } from './worker-hint.js';

/** What reading commands learn about the store besides itself. */
export interface StoreContext {
  /** The flags that reach the store again (` --runs-dir dir`, ` --nats url`), for hints. */
  flags: string;
  /** Where each actor of a run stands by its actor record (distributed runs only). */
  placements?: (runId: RunId) => Promise<ReadonlyMap<string, string>>;
}

/**
 * Runs `work` on the run store the flags name: the namespace's store on NATS when `--nats` (or
 * `TROUPE_NATS_URL`) is given, else the runs directory. `where` names it for messages.
 */
export function withRunStore(
  flags: NatsFlags & { runsDir: string },
  io: CliIo,
  command: string,
  work: (store: RunStore, where: string, context: StoreContext) => Promise<ExitCode>,
): Promise<ExitCode> {
  if (natsTargetOf(flags, io.env) === undefined) return work(createFileRunStore(flags.runsDir), flags.runsDir, { flags: runsDirFlag(flags.runsDir) });
  return withNatsSession(flags, io, command, async (session) => {
    const { createNatsRunStore, remoteOnlyTransport } = session.nats;
    const store = createNatsRunStore(session.resources);
    const transport = remoteOnlyTransport(session.resources, store, '');
    try {
      return await work(store, `namespace "${session.target.namespace}" on NATS at ${session.target.display}`, {
        flags: ` ${session.target.flags}`,
        placements: (runId) => placementsOf(session, store, transport, runId),
      });
    } finally {
      await transport.close();
    }
  });
}

/**
 * Where each actor of a run that has not ended stands, by its record: `running on <host>`,
 * `waiting`, or `queued`. While the run goes on, a queued actor (a record saying so, or a child on
 * the task queue, which has no record until a worker claims it) says what it waits for: `queued —
 * no live worker hosts "researcher"; start one: troupe worker team.yaml --nats …`.
 */
async function placementsOf(session: NatsSession, store: NatsRunStore, transport: NatsTransport, runId: RunId): Promise<ReadonlyMap<string, string>> {
  const { describeQueued, listWorkers, unclaimedChildren } = session.nats;
  const [records, run] = await Promise.all([transport.records.list(runId), store.getRun(runId)]);
  const placed = new Map(records.flatMap(({ path, record }) => (record.status === 'ended' ? [] : [[path as string, placementOf(record)] as const])));
  const queued = records
    .filter(({ record }) => record.status === 'queued' && record.abortRequested !== true)
    .map(({ path, record }) => ({ path, agent: record.agent, graph: record.graph }));
  // A child on the task queue has no record until a worker claims it. Its graph is its run's.
  const graph = records.find(({ record }) => record.graph !== undefined)?.record.graph;
  for (const child of await unclaimedChildren(store, runId, new Set(records.map(({ path }) => path)))) {
    placed.set(child.path, 'queued');
    queued.push({ path: child.path, agent: child.agent, graph });
  }
  if (queued.length === 0 || run === undefined || isFinal(run)) return placed;
  const workers = await listWorkers(session.resources.nc, session.target.namespace, { maxWaitMs: 1000 });
  const command = workerCommandFor(run.graphFile ?? '<graph.yaml>', session.target);
  for (const actor of queued) placed.set(actor.path, `queued — ${describeQueued(workers, { agent: actor.agent, graph: actor.graph ?? graph, command })}`);
  return placed;
}

function placementOf(record: StoredActorRecord['record']): string {
  const where = record.status === 'running' && record.host !== undefined ? `running on ${record.host}` : record.status;
  return record.abortRequested === true ? `${where}, abort requested` : where;
}
