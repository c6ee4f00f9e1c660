import { parseRunId, TroupeError } from '@troupe/core';
import {
  createFileRunStore,
  createRuntime,
  RunStoreErrorCode,
  TransportErrorCode,
  type ActorBuildOptions,
  type GraphConfig,
  type Instrumentation,
  type LogLevel,
  type Logger,
  type RunHandle,
  type RunRecord,
  type RunStatus,
  type RunStore,
  type Runtime,
} from '@troupe/runtime';
import type { CliIo } from '../cli-io.js';
import { commandLogger } from '../command-logger.js';
import { ExitCode } from '../exit-code.js';
import { natsRuntime } from '../nats/nats-runtime.js';
import { loadProjectEnv } from '../project/dotenv.js';
import type { NatsSession } from '../nats/nats-session.js';
import { openControlSocket } from './control-socket.js';
import { driveRun } from './drive-run.js';
import { runsDirFlag } from './runs-dir-flag.js';
import type { OtelFlags } from '../telemetry/otel-config.js';
import { withTelemetry } from '../telemetry/with-telemetry.js';
import { loadGraphOrSay } from './load-graph.js';
import { startMcpServers } from './mcp-servers.js';

/** Options of {@link goOnWithStoredRun}. */
export interface StoredRunOptions {
  runId: string;
  /** Where the run is recorded: a runs directory, or the namespace of a NATS session. */
  at: { runsDir: string } | { session: NatsSession };
  /** The command's name, in logs and messages. */
  command: string;
  json?: boolean;
  logLevel?: LogLevel;
  /** Why the command cannot go on with this run (its status), or undefined when it can. */
  refuse(record: RunRecord): string | undefined;
  /** Acts on the resumed run once it is shown (delivers an answer); when it fails the run is left as it was, exit 2. */
  start?(handle: RunHandle): Promise<void>;
  /** `--otel`, `--otel-content`: export traces and metrics (the `OTEL_*` environment may ask too). */
  telemetry?: OtelFlags;
}

/** A store of runs, and how a runtime that goes on with one of them is made there. */
interface RunPlace {
  store: RunStore;
  /** Names the store, for the message that a run is not there. */
  where: string;
  /** The flags that find the store again, for printed commands. */
  flags: string;
  /** The `troupe runs` that lists the store's runs. */
  lists: string;
  open(graph: GraphConfig, build: ActorBuildOptions): PlacedRuntime;
}

interface PlacedRuntime {
  runtime: Runtime;
  onInterrupt?: 'detach';
  /** Once the run is shown: closes the runtime, or leaves what it hosts to the workers when the run goes on. */
  leave(handle: RunHandle, code: ExitCode): Promise<void>;
}

/**
 * Goes on with a recorded run in this process: loads the graph file the run ran, restores the
 * actors that had not ended from their latest snapshots (`Runtime.resume`; on NATS only those
 * whose process is gone — the workers keep theirs), and shows the run until it ends or waits
 * again, as `troupe run` does. An unknown run, a run the command refuses, a run still hosted by a
 * live process, or a graph file that no longer loads exits 2. With telemetry on, the resumed run
 * goes on in the trace it started in, and its spans are flushed before this returns (SIGTERM then
 * aborts it as Ctrl-C does).
 */
export async function goOnWithStoredRun(options: StoredRunOptions, io: CliIo): Promise<ExitCode> {
  const logger = commandLogger(io, options.logLevel ?? 'warn', options.command);
  return withTelemetry(options.telemetry ?? {}, io, logger, { terminate: 'abort' }, (scope) => goOn(options, logger, scope.io, scope.instrumentation));
}

async function goOn(options: StoredRunOptions, logger: Logger, io: CliIo, instrumentation: Instrumentation | undefined): Promise<ExitCode> {
  const place = 'session' in options.at ? natsPlace(options.at.session, io) : filePlace(options.at.runsDir);
  const runId = parseRunId(options.runId);
  const record = await place.store.getRun(runId);
  if (record === undefined) {
    io.stderr(`troupe: no run ${options.runId} in ${place.where} (${place.lists} lists them)\n`);
    return ExitCode.BadInput;
  }
  const refused = options.refuse(record);
  if (refused !== undefined) {
    io.stderr(`troupe: run ${record.id} is ${record.status}, ${refused}\n`);
    return ExitCode.BadInput;
  }
  if (record.graphFile === undefined) {
    io.stderr(`troupe: run ${record.id} does not say which graph file it ran\n`);
    return ExitCode.BadInput;
  }
  // The hook before every command read the current directory's .env; the run's graph file may be elsewhere.
  loadProjectEnv(io, process.cwd(), record.graphFile);
  const graph = await loadGraphOrSay(record.graphFile, io, options.command, { entry: record.entry });
  if (graph === undefined) return ExitCode.BadInput;
  const mcp = await startMcpServers(graph, Object.keys(graph.agents), logger, io, options.command);
  if (mcp.failed) {
    await mcp.close();
    return ExitCode.RunFailed;
  }
  const placed = place.open(graph, {
    env: io.env,
    ...(mcp.hub === undefined ? {} : { mcp: mcp.hub }),
    ...(instrumentation === undefined ? {} : { instrumentation }),
  });
  let handle: RunHandle | undefined;
  let code: ExitCode = ExitCode.RunFailed;
  let closeControl: (() => Promise<void>) | undefined;
  try {
    // Said here; the runtime's resume ends them too, for anyone using the library.
    const left = (await place.store.processes?.reap(runId)) ?? [];
    if (left.length > 0) io.stderr(`troupe: ended the tool processes the killed process left running (process group ${left.join(', ')})\n`);
    try {
      handle = await placed.runtime.resume(runId);
    } catch (error) {
      // Another process has it: hosting it (NATS), or answering it first (a runs folder).
      const taken = error instanceof TroupeError && (error.code === TransportErrorCode.StillHosted || error.code === RunStoreErrorCode.AlreadyAnswered);
      if (!taken) throw error;
      io.stderr(`troupe: ${error.message}; troupe watch ${record.id}${place.flags} follows it\n`);
      return ExitCode.BadInput;
    }
    if ('runsDir' in options.at) closeControl = openControlSocket(handle, options.at.runsDir, logger);
    code = await drive(handle, { placed, place, options, logger, before: record.status }, io);
    return code;
  } finally {
    await closeControl?.();
    if (handle === undefined) await placed.runtime.close();
    else await placed.leave(handle, code);
    await mcp.close();
  }
}

/** Shows the resumed run; when delivering `start` fails, the run's status goes back to `before` (exit 2). */
async function drive(
  handle: RunHandle,
  { placed, place, options, logger, before }: { placed: PlacedRuntime; place: RunPlace; options: StoredRunOptions; logger: Logger; before: RunStatus },
  io: CliIo,
): Promise<ExitCode> {
  let failedStart: unknown;
  const start =
    options.start === undefined
      ? undefined
      : (): Promise<void> =>
          (options.start?.(handle) ?? Promise.resolve()).catch((error: unknown) => {
            failedStart = error;
            throw error;
          });
  try {
    return await driveRun(
      handle,
      {
        logger,
        resumeFlags: place.flags,
        ...(placed.onInterrupt === undefined ? {} : { onInterrupt: placed.onInterrupt }),
        ...(start === undefined ? {} : { start }),
        ...(options.json === true ? { json: true } : {}),
      },
      io,
    );
  } catch (error) {
    if (failedStart === undefined) throw error;
    io.stderr(`troupe: ${error instanceof Error ? error.message : String(error)}\n`);
    await place.store.updateRun(handle.id, { status: before });
    return ExitCode.BadInput;
  }
}

function filePlace(runsDir: string): RunPlace {
  const store = createFileRunStore(runsDir);
  return {
    store,
    where: runsDir,
    flags: runsDirFlag(runsDir),
    lists: 'troupe runs',
    open: (graph, build) => {
      const runtime = createRuntime({ ...build, graph, store });
      return { runtime, leave: () => runtime.close() };
    },
  };
}

function natsPlace(session: NatsSession, io: CliIo): RunPlace {
  const flags = ` ${session.target.flags}`;
  return {
    store: session.nats.createNatsRunStore(session.resources),
    where: `namespace "${session.target.namespace}" on NATS at ${session.target.display}`,
    flags,
    lists: `troupe runs${flags}`,
    open: (graph, build) => {
      const nats = natsRuntime(graph, session, build);
      return { runtime: nats.runtime, onInterrupt: 'detach', leave: (handle, code) => nats.leave(handle, code, io) };
    },
  };
}
