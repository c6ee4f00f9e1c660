import { readFileSync } from 'node:fs';
import { Command, CommanderError, Option } from 'commander';
import { DEFAULT_RUNS_DIR, LOG_LEVELS, type LogLevel } from '@troupe/runtime';
import type { CliIo } from './cli-io.js';
import { modelsCommand } from './commands/models.js';
import { mcpToolsCommand } from './commands/mcp-tools.js';
import { answerCommand } from './commands/answer.js';
import { graphCommand } from './commands/graph.js';
import { runCommand } from './commands/run.js';
import { runsCommand } from './commands/runs.js';
import { showCommand } from './commands/show.js';
import { ExitCode } from './exit-code.js';

interface RunFlags {
  input: string;
  entry?: string;
  model?: string;
  json?: boolean;
  logLevel: LogLevel;
  runsDir: string;
}

interface AnswerFlags {
  runsDir: string;
  json?: boolean;
  logLevel: LogLevel;
  path?: string;
}

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

  program
    .command('run')
    .description("run a graph file's entry agent on one input, streaming its answer")
    .argument('<file>', 'the graph file (YAML)')
    .requiredOption('-i, --input <text>', 'the user message')
    .option('-e, --entry <agent>', "the agent to run instead of the file's entry")
    .option('-m, --model <provider:model>', "run the entry agent on this model instead of its own (e.g. anthropic:claude-sonnet-4-5)")
    .option('--json', 'print every event as one JSON line instead of the text')
    .option('--runs-dir <dir>', 'where runs are recorded', DEFAULT_RUNS_DIR)
    .addOption(new Option('--log-level <level>', 'logs on standard error').choices(LOG_LEVELS).default('warn'))
    .action(async (file: string, _flags: unknown, command: Command) => {
      const flags = command.opts<RunFlags>();
      exitCode = await runCommand(
        {
          file,
          input: flags.input,
          logLevel: flags.logLevel,
          runsDir: flags.runsDir,
          ...(flags.entry === undefined ? {} : { entry: flags.entry }),
          ...(flags.model === undefined ? {} : { model: flags.model }),
          ...(flags.json === true ? { json: true } : {}),
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
    .addOption(new Option('--log-level <level>', 'logs on standard error (servers\' stderr at info)').choices(LOG_LEVELS).default('warn'))
    .action(async (file: string, _flags: unknown, command: Command) => {
      const flags = command.opts<{ json?: boolean; logLevel: LogLevel }>();
      exitCode = await mcpToolsCommand({ file, logLevel: flags.logLevel, ...(flags.json === true ? { json: true } : {}) }, io);
    });

  program
    .command('runs')
    .description('list the recorded runs: status, entry, start, duration, tokens, cost')
    .option('--runs-dir <dir>', 'where runs are recorded', DEFAULT_RUNS_DIR)
    .option('--json', 'one JSON record per line')
    .action(async (_flags: unknown, command: Command) => {
      const flags = command.opts<{ runsDir: string; json?: boolean }>();
      exitCode = await runsCommand({ runsDir: flags.runsDir, ...(flags.json === true ? { json: true } : {}) }, io);
    });

  program
    .command('show')
    .description("a run's actor tree: each actor's state, turns, tokens and cost, and what it waits for")
    .argument('<runId>', 'the run (troupe runs lists them)')
    .option('--runs-dir <dir>', 'where runs are recorded', DEFAULT_RUNS_DIR)
    .action(async (runId: string, _flags: unknown, command: Command) => {
      exitCode = await showCommand({ runId, runsDir: command.opts<{ runsDir: string }>().runsDir }, io);
    });

  const answerOptions = (command: Command): Command =>
    command
      .option('--runs-dir <dir>', 'where runs are recorded', DEFAULT_RUNS_DIR)
      .option('--json', 'print every event as one JSON line')
      .addOption(new Option('--log-level <level>', 'logs on standard error').choices(LOG_LEVELS).default('warn'));
  answerOptions(
    program
      .command('reply')
      .description('answer the question a waiting run asks, then go on with it (from any process)')
      .argument('<runId>', 'the waiting run')
      .argument('<pathOrAnswer>', 'the asking actor\'s path, or the answer when only one actor asks')
      .argument('[answer]', 'the answer'),
  ).action(async (runId: string, pathOrAnswer: string, answer: string | undefined, _flags: unknown, command: Command) => {
    const flags = command.opts<AnswerFlags>();
    const reply = answer === undefined ? { kind: 'reply' as const, answer: pathOrAnswer } : { kind: 'reply' as const, answer, path: pathOrAnswer };
    exitCode = await answerCommand({ runId, answer: reply, runsDir: flags.runsDir, logLevel: flags.logLevel, ...(flags.json === true ? { json: true } : {}) }, io);
  });
  answerOptions(
    program
      .command('approve')
      .description('decide the permission request a waiting run asks, then go on with it (from any process)')
      .argument('<runId>', 'the waiting run')
      .argument('<callId>', 'the tool call to decide')
      .argument('<decision>', 'allow_once, allow_always, deny_interrupt or deny_never'),
  ).action(async (runId: string, callId: string, decision: string, _flags: unknown, command: Command) => {
    const flags = command.opts<AnswerFlags>();
    const approval = { kind: 'approve' as const, callId, decision };
    exitCode = await answerCommand({ runId, answer: approval, runsDir: flags.runsDir, logLevel: flags.logLevel, ...(flags.json === true ? { json: true } : {}) }, io);
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
