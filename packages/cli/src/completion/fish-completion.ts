import { allCommands, type CommandSpec, type OptionSpec } from './command-spec.js';

/** `text` as one single-quoted fish word. */
function quote(text: string): string {
  return `'${text.replace(/\\/g, '\\\\').replace(/'/g, "\\'")}'`;
}

function oneLine(text: string): string {
  return text.replace(/\s+/g, ' ').trim();
}

/** The `complete` line of one option of the command at `path`. */
function optionLine(program: string, path: string, option: OptionSpec): string {
  const names = option.names.map((name) => (name.startsWith('--') ? `-l ${name.slice(2)}` : `-s ${name.slice(1)}`)).join(' ');
  const value = option.value;
  let takes = '';
  if (value !== undefined) {
    if (value.kind === 'choice') takes = ` -x -a ${quote(value.choices.join(' '))}`;
    else if (value.kind === 'file' || value.kind === 'graph') takes = ' -r -F';
    else if (value.kind === 'dir') takes = ` -x -a '(__fish_complete_directories)'`;
    else takes = ' -x';
  }
  return `complete -c ${program} -n ${quote(`__troupe_at ${quote(path)}`)} ${names}${takes} -d ${quote(oneLine(option.description))}`;
}

/**
 * The fish completion script of the program `spec` describes: each command and subcommand with
 * its description, each option with its description and value (files, directories, choices),
 * graph files (`*.yaml`, `*.yml`) where a command takes one. Loads from
 * `~/.config/fish/completions/`.
 */
export function fishCompletion(spec: CommandSpec): string {
  const program = spec.name;
  const commands = allCommands(spec);
  const key = (command: CommandSpec): string => command.path.join(' ');
  const subcommandCases = commands
    .filter((command) => command.subcommands.length > 0)
    .map((command) => `        case ${quote(key(command))}\n            printf '%s\\n' ${command.subcommands.map((sub) => quote(sub.name)).join(' ')}`);
  const valued = commands.flatMap((command) =>
    command.options.filter((option) => option.value !== undefined).flatMap((option) => option.names.map((name) => quote(`${key(command)} ${name}`))),
  );
  const lines: string[] = [];
  for (const command of commands) {
    for (const sub of command.subcommands) {
      lines.push(`complete -c ${program} -n ${quote(`__troupe_at ${quote(key(command))}`)} -a ${quote(sub.name)} -d ${quote(oneLine(sub.description))}`);
    }
    for (const option of command.options) lines.push(optionLine(program, key(command), option));
    const first = command.args[0]?.value;
    // The first argument's values, while it is the one being typed (or always, when it repeats).
    const at = `-n ${quote(`__troupe_at ${quote(key(command))}${command.args[0]?.variadic === true ? '' : ' 0'}`)}`;
    if (first?.kind === 'graph') lines.push(`complete -c ${program} ${at} -a '(__troupe_graph_files)'`);
    else if (first?.kind === 'dir') lines.push(`complete -c ${program} ${at} -a '(__fish_complete_directories)'`);
    else if (first?.kind === 'choice') lines.push(`complete -c ${program} ${at} -a ${quote(first.choices.join(' '))}`);
  }
  return `# ${program} completion for fish: commands, options, and graph files where a command takes one.
# Install:  ${program} completion fish > ~/.config/fish/completions/${program}.fish

function __troupe_subcommands
    switch "$argv[1]"
${subcommandCases.join('\n')}
    end
end

function __troupe_takes_value
    switch "$argv[1] $argv[2]"
        case ${valued.join(' ')}
            return 0
    end
    return 1
end

# Where the command line is: the subcommand ("", "run", "graph validate"…) on the first line,
# and how many positional arguments follow it on the second.
function __troupe_state
    set -l path ''
    set -l positionals 0
    set -l skip 0
    for token in (commandline -opc)[2..-1]
        if test $skip -eq 1
            set skip 0
        else if string match -q -- '-*' $token
            if not string match -q -- '*=*' $token; and __troupe_takes_value "$path" $token
                set skip 1
            end
        else if test $positionals -eq 0; and contains -- $token (__troupe_subcommands "$path")
            set path (string trim -- "$path $token")
        else
            set positionals (math $positionals + 1)
        end
    end
    printf '%s\n' $path $positionals
end

# At the subcommand $argv[1] (and, with $argv[2], at its positional argument of that index, from 0).
function __troupe_at
    set -l state (__troupe_state)
    test "$state[1]" = "$argv[1]"; or return 1
    test (count $argv) -lt 2; or test "$state[2]" -eq "$argv[2]"
end

# Graph files (*.yaml, *.yml) and directories, for the word being completed.
function __troupe_graph_files
    for path in (commandline -ct)*
        if test -d $path
            echo $path/
        else if string match -qr '\\.ya?ml$' -- $path
            echo $path
        end
    end
end

complete -c ${program} -f
${lines.join('\n')}
`;
}
