import { Command, CommanderError } from 'commander';
import type { CliIo } from './cli-io.js';
import { ExitCode } from './exit-code.js';
import { packageVersion } from './package-version.js';
import type { CommandContext } from './program/command-context.js';
import { registerChatCommands } from './program/chat-commands.js';
import { registerCompletionCommand } from './program/completion-commands.js';
import { registerControlCommands } from './program/control-commands.js';
import { registerDashboardCommands } from './program/dashboard-commands.js';
import { registerGraphCommands } from './program/graph-commands.js';
import { registerSandboxCommands } from './program/sandbox-commands.js';
import { registerNatsCommands } from './program/nats-commands.js';
import { registerProjectCommands } from './program/project-commands.js';
import { registerRunCommands } from './program/run-commands.js';
import { registerStoreCommands } from './program/store-commands.js';

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
    .showHelpAfterError('(troupe --help shows the usage)')
    // Options after a subcommand are the subcommand's: `troupe runs prune --runs-dir x` prunes x.
    .enablePositionalOptions();

  const context: CommandContext = { io, exit: (code) => (exitCode = code) };
  registerRunCommands(program, context);
  registerChatCommands(program, context);
  registerStoreCommands(program, context);
  registerControlCommands(program, context);
  registerNatsCommands(program, context);
  registerDashboardCommands(program, context);
  registerGraphCommands(program, context);
  registerSandboxCommands(program, context);
  registerProjectCommands(program, context);
  registerCompletionCommand(program, context);

  try {
    await program.parseAsync([...argv], { from: 'user' });
  } catch (error) {
    if (error instanceof CommanderError) return error.exitCode === 0 ? ExitCode.Ok : ExitCode.BadInput;
    throw error;
  }
  return exitCode;
}
