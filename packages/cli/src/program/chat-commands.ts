import type { Command } from 'commander';
import { DEFAULT_RUNS_DIR, type LogLevel } from '@troupe/runtime';
import { logLevelOption, type CommandContext } from './command-context.js';

interface ChatFlags {
  agent?: string;
  model?: string;
  resume?: string;
  runsDir: string;
  logLevel: LogLevel;
}

const CHAT_EXAMPLES = `
Examples:
  troupe chat                                  the built-in assistant, file tools on this directory
  troupe chat graph.yaml --agent researcher    talk to one agent of a graph
  troupe chat --resume run_…                   go on with a recorded chat (troupe runs lists them)
`;

/** `troupe chat`: a full-screen conversation with an agent. */
export function registerChatCommands(program: Command, { io, exit }: CommandContext): void {
  program
    .command('chat')
    .description('talk with an agent in a full-screen terminal UI (a graph file, or the built-in assistant)')
    .argument('[file]', 'the graph file (YAML); without one, an assistant with the file tools on the current directory')
    .option('-a, --agent <agent>', "the agent to talk to instead of the file's entry")
    .option('-m, --model <provider:model>', 'the model instead of the agent’s own (or the environment’s)')
    .option('--resume <runId>', 'go on with a recorded chat')
    .option('--runs-dir <dir>', 'where runs are recorded', DEFAULT_RUNS_DIR)
    .addOption(logLevelOption('error'))
    .addHelpText('after', CHAT_EXAMPLES)
    .action(async (file: string | undefined, _flags: unknown, command: Command) => {
      const flags = command.opts<ChatFlags>();
      const { chatCommand } = await import('../commands/chat.js');
      exit(
        await chatCommand(
          {
            runsDir: flags.runsDir,
            logLevel: flags.logLevel,
            ...(file === undefined ? {} : { file }),
            ...(flags.agent === undefined ? {} : { agent: flags.agent }),
            ...(flags.model === undefined ? {} : { model: flags.model }),
            ...(flags.resume === undefined ? {} : { resume: flags.resume }),
          },
          io,
        ),
      );
    });
}
