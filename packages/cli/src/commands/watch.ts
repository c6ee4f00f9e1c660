import type { LogLevel } from '@troupe/runtime';
import type { CliIo } from '../cli-io.js';
import { commandLogger } from '../command-logger.js';
import { ExitCode } from '../exit-code.js';
import { followRun } from '../nats/follow-run.js';
import type { NatsFlags } from '../nats/nats-flags.js';
import { withNatsSession } from '../nats/nats-session.js';
import { openRunControl } from '../nats/run-control.js';

/** What `troupe watch` was asked to do. */
export interface WatchCommandOptions {
  runId: string;
  nats: NatsFlags;
  json?: boolean;
  /** Stop with exit 3 when the run waits for a user, instead of following it while it waits. */
  untilWaiting?: boolean;
  logLevel?: LogLevel;
}

/**
 * `troupe watch <runId> --nats <url>`: replays a distributed run's events from its start and
 * follows it live until it ends, shown as `troupe run` shows a run (see `followRun` for the exit
 * codes). Ctrl-C stops watching, not the run. An unknown run exits 2.
 */
export function watchCommand(options: WatchCommandOptions, io: CliIo): Promise<ExitCode> {
  const logger = commandLogger(io, options.logLevel ?? 'warn', 'watch');
  return withNatsSession(options.nats, io, 'watch', async (session) => {
    const control = await openRunControl(session, options.runId, io, 'watch');
    if (control === undefined) return ExitCode.BadInput;
    try {
      return await followRun(
        session,
        control,
        { logger, ...(options.json === true ? { json: true } : {}), ...(options.untilWaiting === true ? { untilWaiting: true } : {}) },
        io,
      );
    } finally {
      await control.transport.close();
    }
  });
}
