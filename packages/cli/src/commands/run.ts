import { resolve } from 'node:path';
import {
  agentOptionsFromConfig,
  createFileRunStore,
  createRuntime,
  DEFAULT_RUNS_DIR,
  GraphFileError,
  loadGraphFile,
  McpAdapterError,
  ProviderConfigError,
  UnknownAgentError,
  withModelOverride,
  type GraphConfig,
  type Instrumentation,
  type Logger,
  type LogLevel,
  type RunHandle,
} from '@troupe/runtime';
import type { CliIo } from '../cli-io.js';
import { commandLogger } from '../command-logger.js';
import { ExitCode } from '../exit-code.js';
import type { NatsTarget } from '../nats/nats-flags.js';
import { natsRuntime } from '../nats/nats-runtime.js';
import { openNatsSession, type NatsSession } from '../nats/nats-session.js';
import type { OtelFlags } from '../telemetry/otel-config.js';
import { withTelemetry } from '../telemetry/with-telemetry.js';
import { openControlSocket } from './control-socket.js';
import { driveRun } from './drive-run.js';
import { runsDirFlag } from './runs-dir-flag.js';
import { sayGraphFileError } from './load-graph.js';
import { startMcpServers } from './mcp-servers.js';

/** What `troupe run` was asked to do. */
export interface RunCommandOptions {
  /** The graph file. */
  file: string;
  /** The user's message. */
  input: string;
  /** The agent to run instead of the file's `entry`. */
  entry?: string;
  /** `provider:model` to run the entry agent on instead of its own model. */
  model?: string;
  /** Print every event as a JSON line instead of the assistant's text. */
  json?: boolean;
  /** Where runs are recorded. Default `.troupe/runs`. */
  runsDir?: string;
  /** Default `warn`. */
  logLevel?: LogLevel;
  /**
   * Run on NATS instead of in this process alone: the run is recorded in the namespace's store,
   * agents with `placement: remote` run on workers, and Ctrl-C detaches instead of aborting.
   */
  nats?: NatsTarget;
  /** With `nats`: every agent on workers, the entry included. */
  remoteAll?: boolean;
  /** `--otel`, `--otel-content`: export traces and metrics (the `OTEL_*` environment may ask too). */
  telemetry?: OtelFlags;
}

/**
 * `troupe run`: loads the graph file and runs its entry (an agent, with its delegations, or a
 * pipeline) on `input` in this process, recording the run under `runsDir`. The entry's text goes
 * to `io.stdout` (or every event as JSON), the actors' progress and a one-line summary to
 * `io.stderr`; see driveRun for waiting runs. A bad file is reported as `file:line:col: message`
 * lines and nothing runs. `io.signal` aborts the run. Never throws for bad input.
 *
 * With `nats`, the run lives on NATS: `io.signal` detaches (exit 130, the run goes on: an entry
 * hosted here is handed over to the workers, as when the run is left waiting) and the printed
 * commands carry `--nats`. NATS that cannot be reached exits 2 before anything runs.
 *
 * With telemetry on (`telemetry` or the `OTEL_*` environment), the run's spans and metrics are
 * exported, and flushed before it returns; SIGTERM then aborts the run as Ctrl-C does.
 */
export async function runCommand(options: RunCommandOptions, io: CliIo): Promise<ExitCode> {
  const logger = commandLogger(io, options.logLevel ?? 'warn', 'run');
  let graph: GraphConfig;
  try {
    graph = await loadGraphFile(options.file, { env: io.env, ...(options.entry === undefined ? {} : { entry: options.entry }) });
  } catch (error) {
    if (error instanceof GraphFileError) {
      sayGraphFileError(error, io, 'run');
      return ExitCode.BadInput;
    }
    if (error instanceof UnknownAgentError) {
      io.stderr(`troupe run: ${error.message} (from --entry)\n`);
      return ExitCode.BadInput;
    }
    throw error;
  }
  if (io.signal.aborted) return ExitCode.Interrupted;

  // Problems name the file as given; the run record keeps its absolute path, for resuming elsewhere.
  graph = { ...graph, file: resolve(graph.file) };
  let session: NatsSession | undefined;
  if (options.nats !== undefined) {
    session = await openNatsSession(options.nats, io, 'run');
    if (session === undefined) return ExitCode.BadInput;
  }
  try {
    return await withTelemetry(options.telemetry ?? {}, io, logger, { terminate: 'abort' }, (scope) =>
      runOn(graph, session, options, logger, scope.io, scope.instrumentation),
    );
  } finally {
    await session?.close();
  }
}

async function runOn(
  graph: GraphConfig,
  session: NatsSession | undefined,
  options: RunCommandOptions,
  logger: Logger,
  io: CliIo,
  instrumentation: Instrumentation | undefined,
): Promise<ExitCode> {
  const entry = graph.entry;
  const isPipeline = graph.pipelines?.[entry] !== undefined;
  // Every agent of the graph may run (delegations, pipeline steps): start the servers they use.
  const mcp = await startMcpServers(graph, Object.keys(graph.agents), logger, io, 'run');
  if (mcp.failed) {
    await mcp.close();
    return ExitCode.RunFailed;
  }
  const agentOptions = { env: io.env, ...(mcp.hub === undefined ? {} : { mcp: mcp.hub }) };
  try {
    if (options.model !== undefined) {
      if (isPipeline) throw new UnknownAgentError(entry, Object.keys(graph.agents));
      graph = withModelOverride(graph, options.model, entry);
    }
    // Build every agent once up front, so a bad model or a missing API key is reported before anything runs.
    for (const name of Object.keys(graph.agents)) agentOptionsFromConfig(graph, name, agentOptions);
  } catch (error) {
    await mcp.close();
    if (error instanceof McpAdapterError) {
      io.stderr(`troupe run: ${error.message}\n`);
      return ExitCode.BadInput;
    }
    // A bad --model, or a provider that cannot connect (no API key): the message names what to fix.
    if (error instanceof ProviderConfigError || error instanceof UnknownAgentError) {
      io.stderr(`troupe run: ${error.message}${options.model === undefined ? '' : ' (from --model)'}\n`);
      return ExitCode.BadInput;
    }
    throw error;
  }
  const runsDir = options.runsDir ?? DEFAULT_RUNS_DIR;
  const build = { ...agentOptions, ...(instrumentation === undefined ? {} : { instrumentation }) };
  const nats = session === undefined ? undefined : natsRuntime(graph, session, { ...build, ...(options.remoteAll === true ? { remoteAll: true } : {}) });
  const runtime = nats?.runtime ?? createRuntime({ graph, store: createFileRunStore(runsDir), ...build });
  const drive = session === undefined ? { resumeFlags: runsDirFlag(runsDir) } : { resumeFlags: ` ${session.target.flags}`, onInterrupt: 'detach' as const };
  logger.info({ file: options.file, entry, nats: session?.target.display }, 'run started');
  let handle: RunHandle | undefined;
  let code: ExitCode = ExitCode.RunFailed;
  let closeControl: (() => Promise<void>) | undefined;
  try {
    handle = runtime.run(options.input);
    if (nats === undefined) closeControl = openControlSocket(handle, runsDir, logger);
    const steps = graph.pipelines?.[entry]?.steps;
    code = await driveRun(handle, { logger, ...drive, ...(steps === undefined ? {} : { steps }), ...(options.json === true ? { json: true } : {}) }, io);
    logger.info({ run: handle.id, exitCode: code }, 'run finished');
    return code;
  } finally {
    await closeControl?.();
    // On NATS, a run left waiting or detached from goes on on a worker.
    if (nats !== undefined && handle !== undefined) await nats.leave(handle, code, io);
    else await runtime.close();
    await mcp.close();
  }
}
