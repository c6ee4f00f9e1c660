import { setTimeout as sleep } from 'node:timers/promises';
import { parseAgentPath, TroupeError, type AgentPath, type RunId } from '@troupe/core';
import { TransportErrorCode } from '@troupe/runtime';
import type { NatsTransport } from '@troupe/nats';
import type { CliIo } from '../cli-io.js';
import { ExitCode } from '../exit-code.js';
import type { NatsFlags } from '../nats/nats-flags.js';
import { withNatsSession } from '../nats/nats-session.js';
import { controlFailure, isFinal, openRunControl, runGraphHash } from '../nats/run-control.js';

/** What `troupe abort` was asked to do. */
export interface AbortCommandOptions {
  runId: string;
  /** Abort only this actor (and what it started); the run goes on. Default: the whole run. */
  path?: string;
  nats: NatsFlags;
  /** How long to wait for the run to end once aborted. Default 30 s. */
  timeoutMs?: number;
}

/**
 * `troupe abort <runId> --nats <url>`: aborts every actor of a distributed run that has not ended,
 * the entry first then the deepest, wherever it lives (an actor put aside waiting for a user is woken on a worker to
 * end), then waits until the run's entry has ended and prints `run <id> aborted`. Exit 0; 1 when
 * the run did not end within the timeout (its actors' hosts may be gone); 2 for an unknown run.
 * A run that has already ended is said so, exit 0.
 */
export function abortCommand(options: AbortCommandOptions, io: CliIo): Promise<ExitCode> {
  return withNatsSession(options.nats, io, 'abort', async (session) => {
    const control = await openRunControl(session, options.runId, io, 'abort', async (run) => (await runGraphHash(session, run, io)) ?? '');
    if (control === undefined) return ExitCode.BadInput;
    const { run, store, transport } = control;
    try {
      if (isFinal(run)) {
        io.stdout(`run ${run.id} has already ended (${run.status})\n`);
        return ExitCode.Ok;
      }
      const deadline = Date.now() + (options.timeoutMs ?? 30_000);
      if (options.path !== undefined && options.path !== run.entry) {
        return await abortActor(transport, run.id, parseAgentPath(options.path), deadline, io);
      }
      // The entry first: aborting it aborts its subtree, and no parent sees a child's abort as a
      // tool result and goes on. Then every actor that has still not ended, deepest first, with
      // the children still on the task queue (they have no record until a worker claims them).
      const records = await transport.records.list(run.id);
      const live = records.filter(({ record }) => record.status !== 'ended').map(({ path, record }) => ({ path, depth: record.depth }));
      live.push(...(await session.nats.unclaimedChildren(store, run.id, new Set(records.map(({ path }) => path)))));
      live.sort((a, b) => a.depth - b.depth);
      const [first, ...rest] = live;
      const order = first?.depth === 0 ? [first, ...rest.reverse()] : live.reverse();
      for (const { path } of order) {
        await transport.control(run.id, path, { type: 'abort' }).catch((error: unknown) => {
          // unknown_actor: it ended meanwhile. Anything else is said, and the others are still aborted.
          if (!(error instanceof TroupeError && error.code === TransportErrorCode.UnknownActor))
            io.stderr(`troupe abort: ${path}: ${error instanceof Error ? error.message : String(error)}\n`);
        });
      }
      const entry = parseAgentPath(run.entry);
      for (;;) {
        const [record, now] = await Promise.all([transport.records.get(run.id, entry), store.getRun(run.id)]);
        if (record?.record.status === 'ended' || (now !== undefined && isFinal(now))) break;
        if (Date.now() > deadline) {
          io.stderr(
            `troupe abort: run ${run.id} was asked to abort but has not ended after ${Math.round((options.timeoutMs ?? 30_000) / 1000)}s (is the process hosting ${run.entry} gone?); troupe show ${run.id} ${session.target.flags} shows where it stands\n`,
          );
          return ExitCode.RunFailed;
        }
        await sleep(200);
      }
      io.stdout(`run ${run.id} aborted\n`);
      return ExitCode.Ok;
    } finally {
      await transport.close();
    }
  });
}

/**
 * `troupe abort <runId> <path> --nats`: aborts one actor below the entry, and the actors it
 * started, wherever it lives; its parent takes the abort as its call's result and goes on. Waits
 * until the actor's record says it ended. An actor that is not running is refused (exit 2) with
 * the list of those that are.
 */
async function abortActor(transport: NatsTransport, runId: RunId, path: AgentPath, deadline: number, io: CliIo): Promise<ExitCode> {
  try {
    await transport.control(runId, path, { type: 'abort' });
  } catch (error) {
    io.stderr(`troupe abort: ${await controlFailure(transport, runId, error)}\n`);
    return ExitCode.BadInput;
  }
  while ((await transport.records.get(runId, path))?.record.status !== 'ended') {
    if (Date.now() > deadline) {
      io.stderr(`troupe abort: ${path} of run ${runId} was asked to abort but has not ended (is the process hosting it gone?)\n`);
      return ExitCode.RunFailed;
    }
    await sleep(200);
  }
  io.stdout(`aborted ${path} of run ${runId}\n`);
  return ExitCode.Ok;
}
