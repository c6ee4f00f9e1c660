import type { RunId } from '@troupe/core';
import { createFileRunStore, type RunStore } from '@troupe/runtime';
import { createNatsRunStore, unclaimedChildren } from '@troupe/runtime/nats';
import type { CliIo } from '../cli-io.js';
import type { ExitCode } from '../exit-code.js';
import { runsDirFlag } from '../commands/drive-run.js';
import { natsTargetOf, type NatsFlags } from './nats-flags.js';
import { withNatsSession } from './nats-session.js';
import { remoteOnlyTransport, type StoredActorRecord } from './run-control.js';

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
    const store = createNatsRunStore(session.resources);
    const transport = remoteOnlyTransport(session.resources, store, '');
    const placements = async (runId: RunId): Promise<ReadonlyMap<string, string>> => {
      const records = await transport.records.list(runId);
      const placed = new Map(records.flatMap(({ path, record }) => (record.status === 'ended' ? [] : [[path as string, placementOf(record)] as const])));
      // A child on the task queue has no record until a worker claims it.
      for (const child of await unclaimedChildren(store, runId, new Set(records.map(({ path }) => path)))) placed.set(child.path, 'queued');
      return placed;
    };
    try {
      return await work(store, `namespace "${session.target.namespace}" on NATS at ${session.target.display}`, { flags: ` ${session.target.flags}`, placements });
    } finally {
      await transport.close();
    }
  });
}

function placementOf(record: StoredActorRecord['record']): string {
  const where = record.status === 'running' && record.host !== undefined ? `running on ${record.host}` : record.status;
  return record.abortRequested === true ? `${where}, abort requested` : where;
}
