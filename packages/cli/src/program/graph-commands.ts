import type { Command } from 'commander';
import type { LogLevel } from '@troupe/runtime';
import { logLevelOption, type CommandContext } from './command-context.js';

/** The commands that inspect what a graph is made of: `graph validate|show`, `mcp tools`, `models`. */
export function registerGraphCommands(program: Command, { io, exit }: CommandContext): void {
  program
    .command('models')
    .description('list the model catalog: context window, output limit and prices per million tokens')
    .option('-p, --provider <name>', 'only this provider (openai, anthropic, google)')
    .option('--json', 'one JSON object per line')
    .action(async (_flags: unknown, command: Command) => {
      const flags = command.opts<{ provider?: string; json?: boolean }>();
      const { modelsCommand } = await import('../commands/models.js');
      exit(modelsCommand({ ...(flags.provider === undefined ? {} : { provider: flags.provider }), ...(flags.json === true ? { json: true } : {}) }, io));
    });

  program
    .command('mcp')
    .description('inspect the MCP servers of a graph file')
    .command('tools')
    .description("start each server under the file's mcpServers and list its tools with their input schemas")
    .argument('<file>', 'the graph file (YAML)')
    .option('--json', 'one JSON object per server')
    .addOption(logLevelOption('warn', "logs on standard error (servers' stderr at info)"))
    .action(async (file: string, _flags: unknown, command: Command) => {
      const flags = command.opts<{ json?: boolean; logLevel: LogLevel }>();
      const { mcpToolsCommand } = await import('../commands/mcp-tools.js');
      exit(await mcpToolsCommand({ file, logLevel: flags.logLevel, ...(flags.json === true ? { json: true } : {}) }, io));
    });

  const graph = program.command('graph').description('check and draw graph files (no API keys needed: a missing one is a warning)');
  graph
    .command('validate')
    .description('load graph files and report every problem of each (exit 0 when all are valid, 2 when one is not)')
    .argument('<files...>', 'the graph files (YAML)')
    .option('--json', 'one JSON object per file: valid, entry, agents, pipelines, problems and warnings ({ file, line, col, message, hint })')
    .action(async (files: string[], _flags: unknown, command: Command) => {
      const flags = command.opts<{ json?: boolean }>();
      const { graphCommand } = await import('../commands/graph.js');
      exit(await graphCommand({ files, action: 'validate', ...(flags.json === true ? { json: true } : {}) }, io));
    });
  graph
    .command('show')
    .description('print each graph as a Mermaid flowchart: agents, delegations, pipeline steps')
    .argument('<files...>', 'the graph files (YAML)')
    .action(async (files: string[]) => {
      const { graphCommand } = await import('../commands/graph.js');
      exit(await graphCommand({ files, action: 'show' }, io));
    });
}
