import { readFileSync } from 'node:fs';
import { Command, CommanderError, InvalidArgumentError, Option } from 'commander';
import { DEFAULT_RUNS_DIR, LOG_LEVELS, type LogLevel } from '@troupe/runtime';
import type { CliIo } from './cli-io.js';
import { abortCommand } from './commands/abort.js';
import { modelsCommand } from './commands/models.js';
import { mcpToolsCommand } from './commands/mcp-tools.js';
import { answerCommand, type Answer } from './commands/answer.js';
import { graphCommand } from './commands/graph.js';
import { natsAnswerCommand } from './commands/nats-answer.js';
import { resumeCommand, type ResumeOptions } from './commands/resume.js';
import { runCommand } from './commands/run.js';
import { runsCommand } from './commands/runs.js';
import { showCommand } from './commands/show.js';
import { watchCommand } from './commands/watch.js';
import { workerCommand } from './commands/worker.js';
import { workersCommand } from './commands/workers.js';
import { ExitCode } from './exit-code.js';
import { addNatsOptions, natsTargetOf, type NatsFlags } from './nats/nats-flags.js';
import { withNatsSession } from './nats/nats-session.js';
import { withRunStore } from './nats/with-run-store.js';

interface RunFlags extends NatsFlags {
  input: string;
  entry?: string;
  model?: string;
  json?: boolean;
  logLevel: LogLevel;
  runsDir: string;
  remoteAll?: boolean;
}

interface AnswerFlags extends NatsFlags {
  runsDir: string;
  json?: boolean;
  logLevel: LogLevel;
}

interface WorkerFlags extends NatsFlags {
  agents?: string;
  concurrency?: number;
  ackWait?: number;
  maxDeliver?: number;
  grace?: number;
  id?: string;
  logLevel: LogLevel;
}

/** A commander parser for a whole number of at least `min`. */
function integer(min: number): (value: string) => number {
  return (value) => {
    const number = Number(value);
    if (!Number.isInteger(number) || number < min) throw new InvalidArgumentError(`expected a whole number of at least ${min}`);
    return number;
  };
}

const logLevelOption = (fallback: LogLevel, what = 'logs on standard error'): Option => new Option('--log-level <level>', what).choices(LOG_LEVELS).default(fallback);

function packageVersion(): string {
  const json: unknown = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8'));
  return typeof json === 'object' && json !== null && 'version' in json && typeof json.version === 'string' ? json.version : '0.0.0';
}

/**
 * The `troupe` command line: parses `argv` (the arguments after the program name), runs the
 * command and returns the process exit code (see {@link ExitCode}). Usage errors are printed to
 * `io.stderr` and return `ExitCode.BadInput`; help and version go to `io.stdout`. Throws only for
 * bugs.
 */
export async function runCli(argv: readonly string[], io: CliIo): Promise<number> {
  let exitCode: number = ExitCode.Ok;
  const program = new Command('troupe')
    .description('Run Troupe agent graphs.')
    .version(packageVersion(), '-V, --version')
    .exitOverride()
    .configureOutput({ writeOut: io.stdout, writeErr: io.stderr })
    .showHelpAfterError('(troupe --help shows the usage)');

  addNatsOptions(
    program
      .command('run')
      .description("run a graph file's entry agent on one input, streaming its answer")
      .argument('<file>', 'the graph file (YAML)')
      .requiredOption('-i, --input <text>', 'the user message')
      .option('-e, --entry <agent>', "the agent to run instead of the file's entry")
      .option('-m, --model <provider:model>', "run the entry agent on this model instead of its own (e.g. anthropic:claude-sonnet-4-5)")
      .option('--json', 'print every event as one JSON line instead of the text')
      .option('--runs-dir <dir>', 'where runs are recorded', DEFAULT_RUNS_DIR)
      .addOption(logLevelOption('warn')),
  )
    .option('--remote-all', 'with --nats: run every agent on workers, the entry included')
    .action(async (file: string, _flags: unknown, command: Command) => {
      const flags = command.opts<RunFlags>();
      const nats = natsTargetOf(flags, io.env);
      if (flags.remoteAll === true && nats === undefined) {
        io.stderr('troupe run: --remote-all needs --nats <urls> (or TROUPE_NATS_URL)\n');
        exitCode = ExitCode.BadInput;
        return;
      }
      exitCode = await runCommand(
        {
          file,
          input: flags.input,
          logLevel: flags.logLevel,
          runsDir: flags.runsDir,
          ...(flags.entry === undefined ? {} : { entry: flags.entry }),
          ...(flags.model === undefined ? {} : { model: flags.model }),
          ...(flags.json === true ? { json: true } : {}),
          ...(nats === undefined ? {} : { nats }),
          ...(flags.remoteAll === true ? { remoteAll: true } : {}),
        },
        io,
      );
    });

  program
    .command('models')
    .description('list the model catalog: context window, output limit and prices per million tokens')
    .option('-p, --provider <name>', 'only this provider (openai, anthropic, google)')
    .option('--json', 'one JSON object per line')
    .action((_flags: unknown, command: Command) => {
      const flags = command.opts<{ provider?: string; json?: boolean }>();
      exitCode = modelsCommand({ ...(flags.provider === undefined ? {} : { provider: flags.provider }), ...(flags.json === true ? { json: true } : {}) }, io);
    });

  program
    .command('mcp')
    .description('inspect the MCP servers of a graph file')
    .command('tools')
    .description("start each server under the file's mcpServers and list its tools with their input schemas")
    .argument('<file>', 'the graph file (YAML)')
    .option('--json', 'one JSON object per server')
    .addOption(logLevelOption('warn', "logs on standard error (servers' stderr at info)"))
    .action(async (file: string, _flags: unknown, command: Command) => {
      const flags = command.opts<{ json?: boolean; logLevel: LogLevel }>();
      exitCode = await mcpToolsCommand({ file, logLevel: flags.logLevel, ...(flags.json === true ? { json: true } : {}) }, io);
    });

  addNatsOptions(
    program
      .command('runs')
      .description('list the recorded runs: status, entry, start, duration, tokens, cost')
      .option('--runs-dir <dir>', 'where runs are recorded', DEFAULT_RUNS_DIR)
      .option('--json', 'one JSON record per line'),
  ).action(async (_flags: unknown, command: Command) => {
    const flags = command.opts<NatsFlags & { runsDir: string; json?: boolean }>();
    exitCode = await withRunStore(flags, io, 'runs', (store, where) => runsCommand({ store, where, ...(flags.json === true ? { json: true } : {}) }, io));
  });

  addNatsOptions(
    program
      .command('show')
      .description("a run's actor tree: each actor's state, turns, tokens and cost, and what it waits for")
      .argument('<runId>', 'the run (troupe runs lists them)')
      .option('--runs-dir <dir>', 'where runs are recorded', DEFAULT_RUNS_DIR),
  ).action(async (runId: string, _flags: unknown, command: Command) => {
    const flags = command.opts<NatsFlags & { runsDir: string }>();
    exitCode = await withRunStore(flags, io, 'show', (store, where, extra) => showCommand({ runId, store, where, ...extra }, io));
  });

  const answerOptions = (command: Command): Command =>
    addNatsOptions(
      command
        .option('--runs-dir <dir>', 'where runs are recorded', DEFAULT_RUNS_DIR)
        .option('--json', 'print every event as one JSON line')
        .addOption(logLevelOption('warn')),
    );
  const answerWith = async (runId: string, answer: Answer, flags: AnswerFlags): Promise<ExitCode> => {
    const common = { runId, answer, logLevel: flags.logLevel, ...(flags.json === true ? { json: true } : {}) };
    return natsTargetOf(flags, io.env) === undefined ? answerCommand({ ...common, runsDir: flags.runsDir }, io) : natsAnswerCommand({ ...common, nats: flags }, io);
  };
  answerOptions(
    program
      .command('reply')
      .description('answer the question a waiting run asks, then go on with it (from any process)')
      .argument('<runId>', 'the waiting run')
      .argument('<pathOrAnswer>', 'the asking actor\'s path, or the answer when only one actor asks')
      .argument('[answer]', 'the answer'),
  ).action(async (runId: string, pathOrAnswer: string, answer: string | undefined, _flags: unknown, command: Command) => {
    const reply = answer === undefined ? { kind: 'reply' as const, answer: pathOrAnswer } : { kind: 'reply' as const, answer, path: pathOrAnswer };
    exitCode = await answerWith(runId, reply, command.opts<AnswerFlags>());
  });
  answerOptions(
    program
      .command('approve')
      .description('decide the permission request a waiting run asks, then go on with it (from any process)')
      .argument('<runId>', 'the waiting run')
      .argument('<callId>', 'the tool call to decide')
      .argument('<decision>', 'allow_once, allow_always, deny_interrupt or deny_never'),
  ).action(async (runId: string, callId: string, decision: string, _flags: unknown, command: Command) => {
    exitCode = await answerWith(runId, { kind: 'approve', callId, decision }, command.opts<AnswerFlags>());
  });

  addNatsOptions(
    program
      .command('resume')
      .description('go on with a run whose troupe run process is gone (killed, or its machine restarted), from its last checkpoints')
      .argument('<runId>', 'the run (troupe runs lists them)')
      .option('--runs-dir <dir>', 'where runs are recorded', DEFAULT_RUNS_DIR)
      .option('--json', 'print every event as one JSON line')
      .addOption(logLevelOption('warn')),
  ).action(async (runId: string, _flags: unknown, command: Command) => {
    const flags = command.opts<NatsFlags & { runsDir: string; json?: boolean; logLevel: LogLevel }>();
    const resume = (at: ResumeOptions['at']): Promise<ExitCode> => resumeCommand({ runId, at, logLevel: flags.logLevel, ...(flags.json === true ? { json: true } : {}) }, io);
    exitCode = natsTargetOf(flags, io.env) === undefined ? await resume({ runsDir: flags.runsDir }) : await withNatsSession(flags, io, 'resume', (session) => resume({ session }));
  });

  addNatsOptions(
    program
      .command('worker')
      .description("host a graph's agents for distributed runs: take their tasks from NATS until stopped (SIGTERM/SIGINT)")
      .argument('<file>', 'the graph file (YAML), the same as the runs use')
      .option('--agents <names>', 'the agents to host, comma-separated (default: every agent of the graph)')
      .option('--concurrency <n>', 'the most tasks at once (default 16)', integer(1))
      .option('--ack-wait <ms>', 'a task whose worker is silent this long goes to another worker (default 30000)', integer(100))
      .option('--max-deliver <n>', 'deliveries of a task before it is dead-lettered (default 5)', integer(1))
      .option('--grace <ms>', 'on stop, how long running tasks may finish before going back to the queue', integer(0), 30_000)
      .option('--id <name>', 'the worker\'s name in logs, records and troupe workers (default: a random one)')
      .addOption(logLevelOption('info')),
  ).action(async (file: string, _flags: unknown, command: Command) => {
    const flags = command.opts<WorkerFlags>();
    const agents = flags.agents?.split(',').map((agent) => agent.trim()).filter((agent) => agent !== '');
    exitCode = await workerCommand(
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
      },
      io,
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
    exitCode = await watchCommand(
      { runId, nats: flags, logLevel: flags.logLevel, ...(flags.json === true ? { json: true } : {}), ...(flags.untilWaiting === true ? { untilWaiting: true } : {}) },
      io,
    );
  });

  addNatsOptions(
    program
      .command('abort')
      .description('abort every actor of a distributed run, wherever it runs, and wait until the run has ended')
      .argument('<runId>', 'the run (troupe runs --nats lists them)'),
  ).action(async (runId: string, _flags: unknown, command: Command) => {
    exitCode = await abortCommand({ runId, nats: command.opts<NatsFlags>() }, io);
  });

  addNatsOptions(
    program
      .command('workers')
      .description('list the live workers of the namespace: agents, load, tasks taken and ended, graph')
      .option('--json', 'one JSON object per worker'),
  ).action(async (_flags: unknown, command: Command) => {
    const flags = command.opts<NatsFlags & { json?: boolean }>();
    exitCode = await workersCommand({ nats: flags, ...(flags.json === true ? { json: true } : {}) }, io);
  });

  const graph = program.command('graph').description('check and draw graph files');
  graph
    .command('validate')
    .description('load a graph file and report every problem (exit 0 when it is valid, 2 when not)')
    .argument('<file>', 'the graph file (YAML)')
    .action(async (file: string) => {
      exitCode = await graphCommand({ file, action: 'validate' }, io);
    });
  graph
    .command('show')
    .description('print the graph as a Mermaid flowchart: agents, delegations, pipeline steps')
    .argument('<file>', 'the graph file (YAML)')
    .action(async (file: string) => {
      exitCode = await graphCommand({ file, action: 'show' }, io);
    });

  try {
    await program.parseAsync([...argv], { from: 'user' });
  } catch (error) {
    if (error instanceof CommanderError) return error.exitCode === 0 ? ExitCode.Ok : ExitCode.BadInput;
    throw error;
  }
  return exitCode;
}
