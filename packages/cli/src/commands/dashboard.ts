import { spawn } from 'node:child_process';
import { GraphFileError } from '@troupe/runtime';
import { createFileRunSource, startDashboard, type RunSource } from '@troupe/dashboard';
import type { CliIo } from '../cli-io.js';
import { commandLogger } from '../command-logger.js';
import { ExitCode } from '../exit-code.js';
import type { Logger, LogLevel } from '@troupe/runtime';
import { sayGraphFileError } from './load-graph.js';

/** What `troupe dashboard` was asked to do. */
export interface DashboardCommandOptions {
  /** The graph file runs are started from (and drawn); without it the page watches and answers runs. */
  file?: string;
  runsDir: string;
  host: string;
  port: number;
  /** The token the page and the API need; default a new random one. */
  token?: string;
  /** Open the page in the system's browser. */
  open?: boolean;
  logLevel?: LogLevel;
  /** Makes the source runs are read from instead of the runs folder (a NATS namespace); the dashboard closes it. */
  source?: (logger: Logger) => RunSource;
}

/** Whether `host` is reachable from this machine only. */
export function isLoopback(host: string): boolean {
  return host === 'localhost' || host === '::1' || /^127\./.test(host);
}

/**
 * `troupe dashboard [graph.yaml]`: serves the dashboard (see `@troupe/dashboard`) until Ctrl-C,
 * printing its URL with the token. On another host than loopback the token guards the API from
 * the network: one is generated and printed when `--token` is not given. A bad graph file is
 * said as `file:line:col` problems, a port in use in one line: exit 2.
 */
export async function dashboardCommand(options: DashboardCommandOptions, io: CliIo): Promise<ExitCode> {
  const logger = commandLogger(io, options.logLevel ?? 'warn', 'dashboard');
  const source =
    options.source?.(logger) ??
    createFileRunSource({ runsDir: options.runsDir, logger, env: io.env, ...(options.file === undefined ? {} : { graphFile: options.file }) });
  try {
    // Loads the graph (and starts its MCP servers) now, so a bad file is said before anything is served.
    await source.graph();
  } catch (error) {
    await source.close();
    if (error instanceof GraphFileError) sayGraphFileError(error, io, 'dashboard');
    else io.stderr(`troupe dashboard: ${error instanceof Error ? error.message : String(error)}\n`);
    return ExitCode.BadInput;
  }
  let dashboard: Awaited<ReturnType<typeof startDashboard>>;
  try {
    dashboard = await startDashboard({
      source,
      host: options.host,
      port: options.port,
      logger,
      ...(options.token === undefined ? {} : { token: options.token }),
    });
  } catch (error) {
    await source.close();
    io.stderr(`troupe dashboard: cannot listen on ${options.host}:${options.port}: ${error instanceof Error ? error.message : String(error)}\n`);
    return ExitCode.BadInput;
  }
  io.stdout(`troupe dashboard: ${dashboard.url}\n`);
  if (!isLoopback(options.host) && options.token === undefined)
    io.stderr(
      `troupe dashboard: listening on ${options.host}, reachable from the network: every request needs the token printed above (--token <token> sets your own)\n`,
    );
  if (options.open === true) openBrowser(dashboard.url, io);
  await new Promise<void>((resolve) => {
    if (io.signal.aborted) resolve();
    else io.signal.addEventListener('abort', () => resolve(), { once: true });
  });
  io.stderr('troupe dashboard: stopping (runs started here and still running are aborted)\n');
  await dashboard.close();
  return ExitCode.Ok;
}

/** Opens `url` with the system's opener; a missing opener is said, not fatal. */
function openBrowser(url: string, io: CliIo): void {
  const command = process.platform === 'darwin' ? 'open' : process.platform === 'win32' ? 'explorer' : 'xdg-open';
  const child = spawn(command, [url], { detached: true, stdio: 'ignore' });
  child.on('error', () => io.stderr(`troupe dashboard: could not open a browser (${command}); open ${url}\n`));
  child.unref();
}
