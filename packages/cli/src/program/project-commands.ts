import { resolve } from 'node:path';
import type { Command } from 'commander';
import { packageVersion } from '../package-version.js';
import { loadProjectEnv } from '../project/dotenv.js';
import { findRunsDir } from '../project/runs-dir.js';
import type { CommandContext } from './command-context.js';

/**
 * `troupe init`, and what every command gets from the project it runs in (a hook before each
 * command's action): the `.env` files' variables (see `loadProjectEnv`) and, unless
 * `--runs-dir` is given, the runs folder found by `findRunsDir` (so `troupe runs` works from a
 * subdirectory). A command's graph file is its `<file>` argument.
 */
export function registerProjectCommands(program: Command, { io, exit }: CommandContext): void {
  program.hook('preAction', (_program, command) => {
    const cwd = process.cwd();
    const graphFile =
      command.registeredArguments[0]?.name() === 'file' && typeof command.processedArgs[0] === 'string' ? resolve(cwd, command.processedArgs[0]) : undefined;
    loadProjectEnv(io, cwd, graphFile);
    if (command.getOptionValueSource('runsDir') === 'default')
      command.setOptionValueWithSource('runsDir', findRunsDir({ cwd, ...(graphFile === undefined ? {} : { graphFile }) }), 'default');
  });

  program
    .command('init')
    .description('scaffold a Troupe project: a graph file, a custom tool and its test, .env.example, package scripts')
    .argument('[dir]', 'the project directory (created when missing)', '.')
    .action(async (dir: string) => {
      const { initCommand } = await import('../commands/init.js');
      exit(initCommand({ dir, cwd: process.cwd(), troupeVersion: packageVersion() }, io));
    });
}
