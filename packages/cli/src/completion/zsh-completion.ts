import { allCommands, type CommandSpec, type OptionSpec, type ValueKind } from './command-spec.js';

/** `text` inside a single-quoted zsh word. */
function inQuotes(text: string): string {
  return text.replace(/'/g, `'\\''`);
}

/** An `_arguments` description: brackets and backslashes escaped, on one line. */
function describe(text: string): string {
  return inQuotes(
    text
      .replace(/\s+/g, ' ')
      .replace(/\\/g, '\\\\')
      .replace(/([[\]])/g, '\\$1'),
  );
}

/** The `:message:action` of a value. */
function action(value: ValueKind, name: string): string {
  const message = name.replace(/:/g, '\\:');
  switch (value.kind) {
    case 'graph':
      return `:${message}:_troupe_graph_files`;
    case 'file':
      return `:${message}:_files`;
    case 'dir':
      return `:${message}:_files -/`;
    case 'choice':
      return `:${message}:(${value.choices.join(' ')})`;
    case 'text':
      return `:${message}: `;
  }
}

function optionSpecs(option: OptionSpec): string[] {
  const value = option.value === undefined ? '' : action(option.value, option.names.at(-1)?.replace(/^-+/, '') ?? 'value');
  return option.names.map((name) => `'${name}[${describe(option.description)}]${inQuotes(value)}'`);
}

function functionName(command: CommandSpec): string {
  return ['_troupe_cmd', ...command.path].join('_').replace(/\W/g, '_');
}

/** The completion function of one command: its options and arguments, or its subcommands. */
function commandFunction(command: CommandSpec): string {
  const specs = command.options.flatMap(optionSpecs);
  if (command.subcommands.length > 0) {
    const described = command.subcommands.map((sub) => `    '${inQuotes(sub.name)}:${describe(sub.description)}'`);
    const dispatch = command.subcommands.map((sub) => `        ${sub.name}) ${functionName(sub)} ;;`);
    return `${functionName(command)}() {
  local curcontext="$curcontext" state line
  typeset -A opt_args
  local -a commands
  commands=(
${described.join('\n')}
  )
  _arguments -C \\
${[...specs, `'1: :->command'`, `'*:: :->args'`].map((spec) => `    ${spec}`).join(' \\\n')}
  case $state in
    command) _describe -t commands 'command' commands ;;
    args)
      case $line[1] in
${dispatch.join('\n')}
      esac
      ;;
  esac
}`;
  }
  const args = command.args.map((arg, index) => {
    const value = inQuotes(action(arg.value, arg.name));
    return arg.variadic ? `'*${value}'` : `'${index + 1}${value}'`;
  });
  return `${functionName(command)}() {
  _arguments -s -S \\
${[...specs, ...args].map((spec) => `    ${spec}`).join(' \\\n')}
}`;
}

/**
 * The zsh completion script of the program `spec` describes: each command and subcommand with
 * its description, each option with its description and value (files, directories, choices),
 * graph files (`*.yaml`, `*.yml`) where a command takes one. Loads from a directory of `$fpath`
 * (as `_troupe`) or with `source`.
 */
export function zshCompletion(spec: CommandSpec): string {
  const program = spec.name;
  return `#compdef ${program}
# ${program} completion for zsh: commands, options, and graph files where a command takes one.
# Install:  ${program} completion zsh > ~/.zfunc/_${program}   (with fpath=(~/.zfunc $fpath) before compinit in ~/.zshrc)
#      or:  echo 'source <(${program} completion zsh)' >> ~/.zshrc   (after compinit)

_troupe_graph_files() {
  _files -g '*.(yaml|yml)(-.)'
}

${allCommands(spec).map(commandFunction).join('\n\n')}

_${program}() {
  ${functionName(spec)} "$@"
}

if [[ "\${funcstack[1]}" == "_${program}" ]]; then
  _${program} "$@"
else
  compdef _${program} ${program}
fi
`;
}
