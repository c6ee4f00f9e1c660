import { readFileSync } from 'node:fs';
import { Command, CommanderError, Option } from 'commander';
import { LOG_LEVELS, type LogLevel } from '@troupe/runtime';
import type { CliIo } from './cli-io.js';
import { runCommand } from './commands/run.js';
import { ExitCode } from './exit-code.js';

interface RunFlags {
  input: string;
  entry?: string;
  json?: boolean;
  logLevel: LogLevel;
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
    .option('--json', 'print every event as one JSON line instead of the text')
    .addOption(new Option('--log-level <level>', 'logs on standard error').choices(LOG_LEVELS).default('warn'))
    .action(async (file: string, _flags: unknown, command: Command) => {
      const flags = command.opts<RunFlags>();
      exitCode = await runCommand(
        {
          file,
          input: flags.input,
          logLevel: flags.logLevel,
          ...(flags.entry === undefined ? {} : { entry: flags.entry }),
          ...(flags.json === true ? { json: true } : {}),
        },
        io,
      );
    });

  try {
    await program.parseAsync([...argv], { from: 'user' });
  } catch (error) {
    if (error instanceof CommanderError) return error.exitCode === 0 ? ExitCode.Ok : ExitCode.BadInput;
    throw error;
  }
  return exitCode;
}
