import { allCommands, type CommandSpec, type ValueKind } from './command-spec.js';

/** A word for the script's `case` patterns and `echo`s, single-quoted. */
function quote(text: string): string {
  return `'${text.replace(/'/g, `'\\''`)}'`;
}

/** A value kind as one word: `graph`, `file`, `dir`, `text`, `choice:a,b,c`. */
export function kindWord(value: ValueKind): string {
  return value.kind === 'choice' ? `choice:${value.choices.join(',')}` : value.kind;
}

/** A shell `case` over `subject`, one branch per entry whose value is not empty. */
function caseOf(subject: string, entries: readonly (readonly [patterns: readonly string[], body: string])[], indent = '    '): string {
  const branches = entries.filter(([, body]) => body !== '').map(([patterns, body]) => `${indent}${patterns.map(quote).join('|')}) ${body} ;;`);
  return [`  case ${subject} in`, ...branches, '  esac'].join('\n');
}

/**
 * The bash completion script of the program `spec` describes: commands and subcommands, each
 * command's options, an option's value (files, directories, fixed choices), and graph files
 * (`*.yaml`, `*.yml`, and directories to reach them) where a command takes one. Works with bash
 * 4 and later, loaded with `source` or from a bash-completion directory.
 */
export function bashCompletion(spec: CommandSpec): string {
  const commands = allCommands(spec);
  const key = (command: CommandSpec): string => command.path.join(' ');
  const program = spec.name;
  const fn = `_${program.replace(/\W/g, '_')}`;
  return `# ${program} completion for bash: commands, options, and graph files where a command takes one.
# Install:  ${program} completion bash > ~/.local/share/bash-completion/completions/${program}
#      or:  echo 'source <(${program} completion bash)' >> ~/.bashrc

${fn}_subcommands() {
${caseOf(
  '"$1"',
  commands.map((command) => [[key(command)], command.subcommands.length === 0 ? '' : `echo ${quote(command.subcommands.map((sub) => sub.name).join(' '))}`]),
)}
}

${fn}_options() {
${caseOf(
  '"$1"',
  commands.map((command) => [[key(command)], `echo ${quote(command.options.flatMap((option) => option.names).join(' '))}`]),
)}
}

# The value an option takes (graph, file, dir, text or choice:a,b), nothing when it takes none.
${fn}_option_value() {
${caseOf(
  '"$1|$2"',
  commands.flatMap((command) =>
    command.options.flatMap((option) =>
      option.value === undefined ? [] : [[option.names.map((name) => `${key(command)}|${name}`), `echo ${quote(kindWord(option.value))}`] as const],
    ),
  ),
)}
}

# The values of the positional arguments, in order; the last one ends in ... when it repeats.
${fn}_arguments() {
${caseOf(
  '"$1"',
  commands.map((command) => [
    [key(command)],
    command.args.length === 0 ? '' : `echo ${quote(command.args.map((arg) => `${kindWord(arg.value)}${arg.variadic ? '...' : ''}`).join(' '))}`,
  ]),
)}
}

${fn}_complete_value() {
  local IFS=$'\\n'
  case "$1" in
    graph) COMPREPLY=($(compgen -d -- "$2") $(compgen -f -X '!*.yaml' -- "$2") $(compgen -f -X '!*.yml' -- "$2")) ;;
    file) COMPREPLY=($(compgen -f -- "$2")) ;;
    dir) COMPREPLY=($(compgen -d -- "$2")) ;;
    choice:*) local words="\${1#choice:}"; COMPREPLY=($(IFS=' '; compgen -W "\${words//,/ }" -- "$2")) ;;
    *) COMPREPLY=() ;;
  esac
}

${fn}() {
  local cur="\${COMP_WORDS[COMP_CWORD]}" path='' word kind i positional=0
  for ((i = 1; i < COMP_CWORD; i++)); do
    word="\${COMP_WORDS[i]}"
    if [[ "$word" == -* ]]; then
      kind=$(${fn}_option_value "$path" "\${word%%=*}")
      if [[ -n "$kind" && "$word" != *=* ]]; then ((i++)); fi
    elif [[ $positional -eq 0 && " $(${fn}_subcommands "$path") " == *" $word "* ]]; then
      path="\${path:+$path }$word"
    else
      ((positional++))
    fi
  done
  if [[ "$cur" != -* && $COMP_CWORD -gt 1 ]]; then
    kind=$(${fn}_option_value "$path" "\${COMP_WORDS[COMP_CWORD-1]}")
    if [[ -n "$kind" ]]; then ${fn}_complete_value "$kind" "$cur"; return; fi
  fi
  if [[ "$cur" == -* ]]; then
    COMPREPLY=($(compgen -W "$(${fn}_options "$path")" -- "$cur"))
    return
  fi
  local subcommands
  subcommands=$(${fn}_subcommands "$path")
  if [[ -n "$subcommands" && $positional -eq 0 ]]; then
    COMPREPLY=($(compgen -W "$subcommands" -- "$cur"))
    return
  fi
  local -a args
  read -r -a args <<< "$(${fn}_arguments "$path")"
  kind=''
  if ((positional < \${#args[@]})); then
    kind="\${args[positional]}"
  elif ((\${#args[@]} > 0)) && [[ "\${args[-1]}" == *... ]]; then
    kind="\${args[-1]}"
  fi
  ${fn}_complete_value "\${kind%...}" "$cur"
}

complete -o filenames -F ${fn} ${program}
`;
}
