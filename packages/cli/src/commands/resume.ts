import type { LogLevel } from '@troupe/runtime';
import type { CliIo } from '../cli-io.js';
import type { ExitCode } from '../exit-code.js';
import { goOnWithStoredRun } from './stored-run.js';

/** Options of {@link resumeCommand}. */
export interface ResumeOptions {
  runId: string;
  runsDir: string;
  json?: boolean;
  logLevel?: LogLevel;
}

/**
 * `troupe resume <runId>`: goes on with a run whose `troupe run` process is gone (killed, or its
 * machine restarted) from its runs directory. Every actor that had not ended is restored from
 * its latest snapshot, so turns that were checkpointed are not run again (nor their tools); the
 * run is shown until it ends, or waits for an answer (exit 3, as `troupe run`). A run that ended
 * exits 2. Not for a distributed run: its workers take up its remote actors on their own, and
 * `troupe watch` follows it.
 */
export function resumeCommand(options: ResumeOptions, io: CliIo): Promise<ExitCode> {
  return goOnWithStoredRun(
    {
      runId: options.runId,
      runsDir: options.runsDir,
      command: 'resume',
      ...(options.json === true ? { json: true } : {}),
      ...(options.logLevel === undefined ? {} : { logLevel: options.logLevel }),
      refuse: (record) => (record.status === 'running' || record.status === 'waiting' ? undefined : 'there is nothing to go on with'),
    },
    io,
  );
}
