import { randomUUID } from 'node:crypto';
import { resolve } from 'node:path';
import { agentOptionsFromConfig, McpAdapterError, ProviderConfigError, type GraphConfig, type Instrumentation, type LogLevel } from '@troupe/runtime';
import type { CliIo } from '../cli-io.js';
import { commandLogger } from '../command-logger.js';
import { ExitCode } from '../exit-code.js';
import type { NatsFlags } from '../nats/nats-flags.js';
import { withNatsSession, type NatsSession } from '../nats/nats-session.js';
import { workerCommandFor } from '../nats/worker-hint.js';
import type { OtelFlags } from '../telemetry/otel-config.js';
import { withTelemetry } from '../telemetry/with-telemetry.js';
import { loadGraphOrSay } from './load-graph.js';
import { startMcpServers } from './mcp-servers.js';

/** What `troupe worker` was asked to do. */
export interface WorkerCommandOptions {
  file: string;
  nats: NatsFlags;
  /** The agents to host. Default: every agent of the graph. */
  agents?: string[];
  /** The most tasks at once. Default 16. */
  concurrency?: number;
  ackWaitMs?: number;
  maxDeliver?: number;
  /** How long running tasks may go on once a stop is asked. Default 30 s. */
  graceMs?: number;
  id?: string;
  /** Default `info`. */
  logLevel?: LogLevel;
  /** `--otel`, `--otel-content`: export traces and metrics (the `OTEL_*` environment may ask too). */
  telemetry?: OtelFlags;
}

/** How long running tasks may finish after SIGTERM/SIGINT before they go back to the queue. */
const DEFAULT_GRACE_MS = 30_000;

/**
 * `troupe worker <graph.yaml> --nats <url>`: hosts the graph's agents (or `agents`) for distributed
 * runs, taking their tasks from the namespace's queue until stopped. Prints one line on stdout
 * once it takes tasks, `worker <id> ready: <agents> (graph <hash>)`; logs go to stderr. SIGTERM
 * or SIGINT stops it: running tasks get `graceMs` to finish (the rest go back to the queue at
 * their last checkpoint), then the MCP servers and the connection are closed and it exits 0; a
 * second SIGINT exits at once (130). A bad file or flag, or NATS that cannot be reached, exits 2;
 * an MCP server that cannot start, or a connection closed for good, exits 1. With telemetry on,
 * the spans of the actors it hosts carry its id (`troupe.host.id`, and `service.instance.id` in
 * the resource) and are flushed once it has stopped.
 */
export async function workerCommand(options: WorkerCommandOptions, io: CliIo): Promise<ExitCode> {
  const logger = commandLogger(io, options.logLevel ?? 'info', 'worker');
  const loaded = await loadGraphOrSay(options.file, io, 'worker');
  if (loaded === undefined) return ExitCode.BadInput;
  const graph: GraphConfig = { ...loaded, file: resolve(loaded.file) };
  const all = Object.keys(graph.agents);
  const agents = options.agents ?? all;
  const unknown = agents.filter((agent) => graph.agents[agent] === undefined);
  if (unknown.length > 0 || agents.length === 0) {
    io.stderr(
      `troupe worker: ${unknown.length > 0 ? `unknown agent${unknown.length === 1 ? '' : 's'} ${unknown.map((a) => `"${a}"`).join(', ')}` : 'no agent'} in --agents (agents of ${options.file}: ${all.join(', ')})\n`,
    );
    return ExitCode.BadInput;
  }
  const hosted = withLocalDelegates(graph, agents);
  // Named up front (as startWorker would), so its spans can carry the id.
  const id = options.id ?? `worker-${randomUUID().slice(0, 8)}`;
  return withNatsSession(options.nats, io, 'worker', (session) =>
    withTelemetry(options.telemetry ?? {}, io, logger, { hostId: id }, ({ instrumentation }) => serve(session, instrumentation)),
  );

  async function serve(session: NatsSession, instrumentation: Instrumentation | undefined): Promise<ExitCode> {
    const mcp = await startMcpServers(graph, hosted, logger, io, 'worker');
    if (mcp.failed) {
      await mcp.close();
      return ExitCode.RunFailed;
    }
    const build = { env: io.env, ...(mcp.hub === undefined ? {} : { mcp: mcp.hub }), ...(instrumentation === undefined ? {} : { instrumentation }) };
    try {
      // Build each hosted agent once up front: a bad model or a missing API key is reported now, not at the first task.
      for (const agent of hosted) agentOptionsFromConfig(graph, agent, build);
    } catch (error) {
      await mcp.close();
      if (!(error instanceof ProviderConfigError || error instanceof McpAdapterError)) throw error;
      io.stderr(`troupe worker: ${error.message}\n`);
      return ExitCode.BadInput;
    }
    const stop = stopRequested(io);
    try {
      const { graphHash, startWorker } = session.nats;
      const worker = await startWorker({
        ...build,
        resources: session.resources,
        graph,
        agents,
        logger,
        ...(options.concurrency === undefined ? {} : { concurrency: options.concurrency }),
        ...(options.ackWaitMs === undefined ? {} : { ackWaitMs: options.ackWaitMs }),
        ...(options.maxDeliver === undefined ? {} : { maxDeliver: options.maxDeliver }),
        id,
        workerCommand: workerCommandFor(graph.file, session.target),
      });
      io.stdout(`worker ${worker.id} ready: ${agents.join(',')} (graph ${graphHash(graph)})\n`);
      const why = await Promise.race([stop.requested, session.resources.nc.closed().then(() => 'closed' as const)]);
      if (why === 'closed') {
        io.stderr(`troupe worker: the connection to NATS at ${session.target.display} closed for good\n`);
        await worker.stop(0).catch(() => undefined);
        return ExitCode.RunFailed;
      }
      await worker.stop(options.graceMs ?? DEFAULT_GRACE_MS);
      return ExitCode.Ok;
    } finally {
      stop.dispose();
      await mcp.close();
    }
  }
}

/** `agents` and the agents they delegate to with `local` placement, which run where they do. */
function withLocalDelegates(graph: GraphConfig, agents: readonly string[]): string[] {
  const hosted = new Set(agents);
  for (const agent of hosted) {
    for (const delegate of graph.agents[agent]?.delegates ?? []) if (graph.agents[delegate]?.placement !== 'remote') hosted.add(delegate);
  }
  return [...hosted];
}

/** Resolves when SIGINT (`io.signal`) or SIGTERM (`io.onTerminate`) asks the command to stop. */
function stopRequested(io: CliIo): { requested: Promise<'stop'>; dispose(): void } {
  let dispose: () => void = () => undefined;
  const requested = new Promise<'stop'>((resolve) => {
    const stop = (): void => resolve('stop');
    if (io.signal.aborted) stop();
    io.signal.addEventListener('abort', stop, { once: true });
    const off = io.onTerminate?.(stop);
    dispose = () => {
      io.signal.removeEventListener('abort', stop);
      off?.();
    };
  });
  return { requested, dispose };
}
