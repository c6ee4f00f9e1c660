import { parseAgentPath } from '@troupe/core';
import { connectRunControl, runDirOf } from '@troupe/runtime';
import type { CliIo } from '../cli-io.js';
import { ExitCode } from '../exit-code.js';
import type { NatsFlags } from '../nats/nats-flags.js';
import { withNatsSession } from '../nats/nats-session.js';
import { controlFailure, isFinal, openRunControl, runGraphHash } from '../nats/run-control.js';
import { findLocalRun } from './local-run.js';

/** What `troupe steer` was asked to do. */
export interface SteerOptions {
  runId: string;
  message: string;
  /** The actor to steer; default the run's entry. */
  path?: string;
  /** `--follow-up`: queue the message as a follow-up (taken once the actor would otherwise end) instead of steering. */
  followUp?: boolean;
}

/** What the message is sent as, and what the command says once it is. */
function sending(options: SteerOptions): { type: 'steer' | 'followUp'; done: string } {
  return options.followUp === true ? { type: 'followUp', done: 'followed up' } : { type: 'steer', done: 'steered' };
}

/**
 * `troupe steer <runId> [path] "message"`: sends a steering message to an actor of a running run
 * (the entry by default), reached through the control socket of the process running it. It
 * enters the actor's conversation once its running tool calls are done (calls not yet finished
 * are skipped), before its next model call. A run that has ended, waits with no process, or was
 * interrupted gets a clear answer and exit 2, as does an actor that is not running. With
 * `followUp`, the message is queued as a follow-up instead: the actor takes it once it would
 * otherwise end, and goes on.
 */
export async function steerCommand(options: SteerOptions & { runsDir: string }, io: CliIo): Promise<ExitCode> {
  const found = await findLocalRun(options.runsDir, options.runId, 'steer', io);
  if (found === undefined) return ExitCode.BadInput;
  const { run, flags } = found;
  const control = isFinal(run) ? undefined : await connectRunControl(runDirOf(options.runsDir, run.id));
  if (control === undefined) {
    const why = isFinal(run)
      ? `has ended (${run.status}): there is nothing to steer`
      : run.status === 'waiting'
        ? `is waiting for an answer and no process is running it: troupe show ${run.id}${flags} says what it waits for`
        : run.status === 'interrupted'
          ? `was interrupted (its process was killed): troupe resume ${run.id}${flags} goes on with it`
          : 'is running in a process that does not answer on its control socket (an older troupe, or a program using the library)';
    io.stderr(`troupe steer: run ${run.id} ${why}\n`);
    return run.status === 'running' ? ExitCode.RunFailed : ExitCode.BadInput;
  }
  try {
    const answer = await control.request({
      type: sending(options).type,
      message: options.message,
      ...(options.path === undefined ? {} : { path: options.path }),
    });
    if (!answer.ok) {
      io.stderr(`troupe steer: ${answer.error.message}\n`);
      return ExitCode.BadInput;
    }
  } finally {
    control.close();
  }
  io.stdout(`${sending(options).done} ${options.path ?? run.entry} of run ${run.id}\n`);
  return ExitCode.Ok;
}

/**
 * `troupe steer … --nats`: sends the steering message to the actor of a distributed run wherever
 * it lives (an actor put aside waiting for a user is woken on a worker to take it), or with
 * `followUp` queues it as a follow-up.
 */
export function natsSteerCommand(options: SteerOptions & { nats: NatsFlags }, io: CliIo): Promise<ExitCode> {
  return withNatsSession(options.nats, io, 'steer', async (session) => {
    // The graph's fingerprint only matters to wake an actor put aside waiting for a user; not knowing it is no reason to refuse.
    const control = await openRunControl(
      session,
      options.runId,
      io,
      'steer',
      async (run) => (await runGraphHash(session, run, io).catch(() => undefined)) ?? '',
    );
    if (control === undefined) return ExitCode.BadInput;
    const { run, transport } = control;
    try {
      if (isFinal(run)) {
        io.stderr(`troupe steer: run ${run.id} has ended (${run.status}): there is nothing to steer\n`);
        return ExitCode.BadInput;
      }
      const path = parseAgentPath(options.path ?? run.entry);
      try {
        await transport.control(run.id, path, { type: sending(options).type, message: options.message });
      } catch (error) {
        io.stderr(`troupe steer: ${await controlFailure(transport, run.id, error)}\n`);
        return ExitCode.BadInput;
      }
      io.stdout(`${sending(options).done} ${path} of run ${run.id}\n`);
      return ExitCode.Ok;
    } finally {
      await transport.close();
    }
  });
}
