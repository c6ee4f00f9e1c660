import type { Command } from 'commander';
import type { LogLevel } from '@troupe/runtime';
import { addNatsOptions, type NatsFlags } from '../nats/nats-flags.js';
import type { OtelFlags } from '../telemetry/otel-config.js';
import { integer, logLevelOption, type CommandContext } from './command-context.js';
import { addOtelOptions, otelFlagsOf } from './otel-options.js';

interface WorkerFlags extends NatsFlags, OtelFlags {
  agents?: string;
  concurrency?: number;
  ackWait?: number;
  maxDeliver?: number;
  grace?: number;
  id?: string;
  logLevel: LogLevel;
}

/** The commands of distributed runs: `worker`, `workers`, `watch` (`abort` is with the control commands). */
export function registerNatsCommands(program: Command, { io, exit }: CommandContext): void {
  addNatsOptions(
    addOtelOptions(
      program
        .command('worker')
        .description("host a graph's agents for distributed runs: take their tasks from NATS until stopped (SIGTERM/SIGINT)")
        .argument('<file>', 'the graph file (YAML), the same as the runs use')
        .option('--agents <names>', 'the agents to host, comma-separated (default: every agent of the graph)')
        .option('--concurrency <n>', 'the most tasks at once (default 16)', integer(1))
        .option('--ack-wait <ms>', 'a task whose worker is silent this long goes to another worker (default 30000)', integer(100))
        .option('--max-deliver <n>', 'deliveries of a task before it is dead-lettered (default 5)', integer(1))
        .option('--grace <ms>', 'on stop, how long running tasks may finish before going back to the queue', integer(0), 30_000)
        .option('--id <name>', "the worker's name in logs, records and troupe workers (default: a random one)")
        .addOption(logLevelOption('info')),
    ),
  ).action(async (file: string, _flags: unknown, command: Command) => {
    const flags = command.opts<WorkerFlags>();
    const agents = flags.agents
      ?.split(',')
      .map((agent) => agent.trim())
      .filter((agent) => agent !== '');
    const { workerCommand } = await import('../commands/worker.js');
    exit(
      await workerCommand(
        {
          file,
          nats: flags,
          logLevel: flags.logLevel,
          ...(agents === undefined ? {} : { agents }),
          ...(flags.concurrency === undefined ? {} : { concurrency: flags.concurrency }),
          ...(flags.ackWait === undefined ? {} : { ackWaitMs: flags.ackWait }),
          ...(flags.maxDeliver === undefined ? {} : { maxDeliver: flags.maxDeliver }),
          ...(flags.grace === undefined ? {} : { graceMs: flags.grace }),
          ...(flags.id === undefined ? {} : { id: flags.id }),
          telemetry: otelFlagsOf(flags),
        },
        io,
      ),
    );
  });

  addNatsOptions(
    program
      .command('watch')
      .description("replay a distributed run's events from its start and follow it live until it ends")
      .argument('<runId>', 'the run (troupe runs --nats lists them)')
      .option('--json', 'print every event as one JSON line instead of the text')
      .option('--until-waiting', 'stop with exit 3 when the run waits for a user, instead of following it while it waits')
      .addOption(logLevelOption('warn')),
  ).action(async (runId: string, _flags: unknown, command: Command) => {
    const flags = command.opts<NatsFlags & { json?: boolean; untilWaiting?: boolean; logLevel: LogLevel }>();
    const { watchCommand } = await import('../commands/watch.js');
    exit(
      await watchCommand(
        {
          runId,
          nats: flags,
          logLevel: flags.logLevel,
          ...(flags.json === true ? { json: true } : {}),
          ...(flags.untilWaiting === true ? { untilWaiting: true } : {}),
        },
        io,
      ),
    );
  });

  addNatsOptions(
    program
      .command('workers')
      .description('list the live workers of the namespace: agents, load, tasks taken and ended, graph')
      .option('--json', 'one JSON object per worker'),
  ).action(async (_flags: unknown, command: Command) => {
    const flags = command.opts<NatsFlags & { json?: boolean }>();
    const { workersCommand } = await import('../commands/workers.js');
    exit(await workersCommand({ nats: flags, ...(flags.json === true ? { json: true } : {}) }, io));
  });
}
