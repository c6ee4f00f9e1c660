import type { Command } from 'commander';

/** What completes the value of an option or an argument: graph files, any file, directories, fixed words, or nothing (free text). */
export type ValueKind = { kind: 'graph' } | { kind: 'file' } | { kind: 'dir' } | { kind: 'choice'; choices: readonly string[] } | { kind: 'text' };

/** One option of a command, for completion. */
export interface OptionSpec {
  /** Its spellings: `-i`, `--input`. */
  names: readonly string[];
  description: string;
  /** What its value is; absent when it takes none (or only an optional one, which is not completed). */
  value?: ValueKind;
}

/** One positional argument of a command. */
export interface ArgumentSpec {
  name: string;
  variadic: boolean;
  value: ValueKind;
}

/** A command of the program as completion scripts see it: plain data, walked from commander's tree. */
export interface CommandSpec {
  name: string;
  /** The words that lead to it after the program's name (`['graph', 'validate']`; `[]` for the program). */
  path: readonly string[];
  description: string;
  options: readonly OptionSpec[];
  args: readonly ArgumentSpec[];
  subcommands: readonly CommandSpec[];
}

const HELP: OptionSpec = { names: ['-h', '--help'], description: 'display help for command' };

/** The spec of `command` and everything under it. */
export function commandSpec(command: Command, path: readonly string[] = []): CommandSpec {
  const options: OptionSpec[] = command.options
    .filter((option) => !option.hidden)
    .map((option) => {
      const names = [option.short, option.long].filter((name): name is string => name !== undefined);
      const value = option.required ? valueKindOf(placeholder(option.flags), option.argChoices, 'option') : undefined;
      return { names, description: option.description, ...(value === undefined ? {} : { value }) };
    });
  const args = command.registeredArguments.map((argument) => ({
    name: argument.name(),
    variadic: argument.variadic,
    value: valueKindOf(argument.name(), argument.argChoices, 'argument'),
  }));
  return {
    name: command.name(),
    path,
    description: command.description(),
    options: [...options, HELP],
    args,
    subcommands: command.commands.map((sub) => commandSpec(sub, [...path, sub.name()])),
  };
}

/** Every command of the tree, the program first, parents before their subcommands. */
export function allCommands(spec: CommandSpec): CommandSpec[] {
  return [spec, ...spec.subcommands.flatMap(allCommands)];
}

/** `<dir>` in `--runs-dir <dir>`. */
function placeholder(flags: string): string {
  return /[<[]([^>\]]+)[>\]]/.exec(flags)?.[1] ?? '';
}

/**
 * What a value named `name` is: its choices; for an argument, graph files for `file`/`files`
 * (every command's graph file is named so); directories for `dir`; any file for an option's
 * `<file>` or `<path>`; else free text.
 */
function valueKindOf(name: string, choices: readonly string[] | undefined, of: 'option' | 'argument'): ValueKind {
  if (choices !== undefined && choices.length > 0) return { kind: 'choice', choices };
  if (of === 'argument' && (name === 'file' || name === 'files')) return { kind: 'graph' };
  if (name === 'dir') return { kind: 'dir' };
  if (name === 'path' || name === 'file') return { kind: 'file' };
  return { kind: 'text' };
}
