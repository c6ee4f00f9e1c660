import { Argument, type Command } from 'commander';
import { ExitCode } from '../exit-code.js';
import { bashCompletion } from '../completion/bash-completion.js';
import { commandSpec } from '../completion/command-spec.js';
import { fishCompletion } from '../completion/fish-completion.js';
import { zshCompletion } from '../completion/zsh-completion.js';
import type { CommandContext } from './command-context.js';

const SHELLS = { bash: bashCompletion, zsh: zshCompletion, fish: fishCompletion } as const;

const INSTALL = `
Install (then open a new shell):
  bash  troupe completion bash > ~/.local/share/bash-completion/completions/troupe
        (or add to ~/.bashrc:  source <(troupe completion bash))
  zsh   mkdir -p ~/.zfunc && troupe completion zsh > ~/.zfunc/_troupe
        (and in ~/.zshrc, before compinit:  fpath=(~/.zfunc $fpath))
  fish  troupe completion fish > ~/.config/fish/completions/troupe.fish
`;

/**
 * `troupe completion bash|zsh|fish`: prints the completion script of the program as registered
 * when it runs (every command, subcommand and option), so it never lags behind the commands.
 * Register it last.
 */
export function registerCompletionCommand(program: Command, { io, exit }: CommandContext): void {
  program
    .command('completion')
    .description('print the shell completion script for bash, zsh or fish (troupe completion --help says how to install it)')
    .addArgument(new Argument('<shell>', 'the shell: bash, zsh or fish').choices(Object.keys(SHELLS)))
    .addHelpText('after', INSTALL)
    .action((shell: keyof typeof SHELLS) => {
      io.stdout(SHELLS[shell](commandSpec(program)));
      exit(ExitCode.Ok);
    });
}
