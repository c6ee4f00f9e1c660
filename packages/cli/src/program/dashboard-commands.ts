import type { Command } from 'commander';
import { DEFAULT_RUNS_DIR } from '@troupe/runtime';
import { addNatsOptions, natsTargetOf, type NatsFlags } from '../nats/nats-flags.js';
import { withNatsSession } from '../nats/nats-session.js';
import { integer, logLevelOption, type CommandContext } from './command-context.js';

/** `troupe dashboard`: the local web view of runs. */
export function registerDashboardCommands(program: Command, { io, exit }: CommandContext): void {
  addNatsOptions(
    program
      .command('dashboard')
      .description('a local web page of runs: actor trees, statecharts and events live; approve, answer, steer, abort, start runs')
      .argument('[file]', 'the graph file runs are started from (and drawn)')
      .option('--runs-dir <dir>', 'where runs are recorded', DEFAULT_RUNS_DIR)
      .option('--host <host>', 'the address to listen on (any other than loopback is reachable from the network: keep the token secret)', '127.0.0.1')
      .option('--port <port>', 'the port to listen on (0: any free one)', integer(0), 4848)
      .option('--token <token>', 'the token the page and the API need (default: a new random one, printed in the URL)')
      .option('--open', "open the page in the system's browser")
      .addOption(logLevelOption('warn')),
  ).action(async (file: string | undefined, _flags: unknown, command: Command) => {
    const flags = command.opts<NatsFlags & { runsDir: string; host: string; port: number; token?: string; open?: boolean; logLevel: 'warn' }>();
    const base = {
      runsDir: flags.runsDir,
      host: flags.host,
      port: flags.port,
      logLevel: flags.logLevel,
      ...(file === undefined ? {} : { file }),
      ...(flags.token === undefined ? {} : { token: flags.token }),
      ...(flags.open === true ? { open: true } : {}),
    };
    // The dashboard (its server, and the NATS client below) loads only for this command.
    const { dashboardCommand } = await import('../commands/dashboard.js');
    if (natsTargetOf(flags, io.env) === undefined) return exit(await dashboardCommand(base, io));
    const { createNatsRunSource } = await import('@troupe/dashboard');
    exit(
      await withNatsSession(flags, io, 'dashboard', (session) =>
        dashboardCommand(
          {
            ...base,
            source: (logger) =>
              createNatsRunSource({
                resources: session.resources,
                namespace: session.target.namespace,
                display: session.target.display,
                env: io.env,
                logger,
                ...(file === undefined ? {} : { graphFile: file }),
              }),
          },
          io,
        ),
      ),
    );
  });
}
