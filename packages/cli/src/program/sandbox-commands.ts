import type { Command } from 'commander';
import type { CommandContext } from './command-context.js';

/** `troupe sandbox check`: what this machine offers to confine tools. */
export function registerSandboxCommands(program: Command, { io, exit }: CommandContext): void {
  program
    .command('sandbox')
    .description('the OS sandbox that bash and opted-in stdio MCP servers run in')
    .command('check')
    .description('say whether this machine can sandbox tools (bubblewrap) and what it hides (exit 0 when it can, 1 when not)')
    .option('--json', 'one JSON object: available, detail, hidden paths')
    .action(async (_flags: unknown, command: Command) => {
      const flags = command.opts<{ json?: boolean }>();
      const { sandboxCheckCommand } = await import('../commands/sandbox-check.js');
      exit(sandboxCheckCommand(flags.json === true ? { json: true } : {}, io));
    });
}
