import type { LogLevel } from '@troupe/runtime';
import type { CliIo } from '../cli-io.js';
import type { ExitCode } from '../exit-code.js';
import type { OtelFlags } from '../telemetry/otel-config.js';
import { runsDirFlag } from './runs-dir-flag.js';
import { goOnWithStoredRun, type StoredRunOptions } from './stored-run.js';

/** Options of {@link resumeCommand}. */
export interface ResumeOptions {
  runId: string;
  at: StoredRunOptions['at'];
  json?: boolean;
  logLevel?: LogLevel;
  /** `--otel`, `--otel-content`: export traces and metrics. */
  telemetry?: OtelFlags;
}

/**
 * `troupe resume <runId>`: goes on with a run whose `troupe run` process is gone (killed, or its
 * machine restarted), in this process. Every actor that had not ended is restored from its latest
 * snapshot, so turns that were checkpointed are not run again (nor their tools), after the tool
 * processes the killed process left running are ended; the run is shown until it ends, or waits
 * for an answer (exit 3, as `troupe run`). A run that ended, or that a live process runs, exits 2.
 *
 * With `--nats`, only the actors the gone process hosted itself are restored here (its `local`
 * entry, their local children, a pipeline's steps): workers and the task queue keep the others.
 * A run that a live process still hosts exits 2 and says `troupe watch` follows it; as with
 * `troupe run --nats`, a resumed run left waiting or detached from goes on on a worker.
 */
export function resumeCommand(options: ResumeOptions, io: CliIo): Promise<ExitCode> {
  return goOnWithStoredRun(
    {
      runId: options.runId,
      at: options.at,
      command: 'resume',
      ...(options.json === true ? { json: true } : {}),
      ...(options.logLevel === undefined ? {} : { logLevel: options.logLevel }),
      ...(options.telemetry === undefined ? {} : { telemetry: options.telemetry }),
      refuse: (record) => {
        if (record.status === 'waiting' || record.status === 'interrupted') return undefined;
        // In a runs directory `running` means its process is alive; NATS cannot tell (its transport checks).
        if (record.status === 'running')
          return 'runsDir' in options.at ? `a live process runs it (troupe steer and troupe abort${runsDirFlag(options.at.runsDir)} reach it)` : undefined;
        return 'there is nothing to go on with';
      },
    },
    io,
  );
}
