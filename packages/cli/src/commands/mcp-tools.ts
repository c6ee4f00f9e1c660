import { createGraphMcpHub, GraphFileError, loadGraphFile, UnknownAgentError, type GraphConfig, type LogLevel, type McpConnectReport } from '@troupe/runtime';
import type { CliIo } from '../cli-io.js';
import { commandLogger } from '../command-logger.js';
import { ExitCode } from '../exit-code.js';
import { sayGraphFileError } from './load-graph.js';

/** What `troupe mcp tools` was asked to do. */
export interface McpToolsCommandOptions {
  /** The graph file whose `mcpServers` to list. */
  file: string;
  /** One JSON object per server and line instead of text. */
  json?: boolean;
  /** Default `warn`. */
  logLevel?: LogLevel;
}

/**
 * `troupe mcp tools`: starts every server under the graph file's `mcpServers`, and prints each
 * one's tools — the name the model sees, the server's name for it, the description and the input
 * schema — as text, or with `--json` one JSON object per server. A bad file exits 2; a server that
 * cannot be started or reached is reported and makes the exit code 1, after the others are listed.
 */
export async function mcpToolsCommand(options: McpToolsCommandOptions, io: CliIo): Promise<ExitCode> {
  const logger = commandLogger(io, options.logLevel ?? 'warn', 'mcp tools');
  let graph: GraphConfig;
  try {
    graph = await loadGraphFile(options.file, { env: io.env });
  } catch (error) {
    if (error instanceof GraphFileError) {
      sayGraphFileError(error, io, 'mcp tools');
      return ExitCode.BadInput;
    }
    if (error instanceof UnknownAgentError) {
      io.stderr(`troupe mcp tools: ${error.message}\n`);
      return ExitCode.BadInput;
    }
    throw error;
  }
  const hub = createGraphMcpHub(graph, { logger });
  if (hub.names().length === 0) {
    io.stderr(`troupe mcp tools: ${options.file} defines no mcpServers\n`);
    return ExitCode.Ok;
  }
  try {
    const reports = await hub.connect();
    for (const report of reports)
      io.stdout(options.json === true ? `${JSON.stringify(jsonOf(report))}\n` : textOf(report, hub.client(report.server).skippedTools()));
    return reports.every((report) => report.ok) ? ExitCode.Ok : ExitCode.RunFailed;
  } finally {
    await hub.close();
  }
}

function jsonOf(report: McpConnectReport): Record<string, unknown> {
  if (!report.ok) return { server: report.server, ok: false, error: report.error };
  return { server: report.server, ok: true, ...report.info, tools: report.tools ?? [] };
}

function textOf(report: McpConnectReport, skipped: readonly { name: string; reason: string }[]): string {
  if (!report.ok) return `${report.server}: unavailable: ${report.error ?? 'unknown error'}\n\n`;
  const tools = report.tools ?? [];
  const info = report.info;
  const head = `${report.server} (${info?.transport ?? '?'}, ${info?.serverName ?? '?'} ${info?.serverVersion ?? ''}): ${tools.length} tool${tools.length === 1 ? '' : 's'}`;
  const lines = [head];
  for (const tool of tools) {
    const alias = tool.exposedName === tool.name ? '' : ` (${tool.name})`;
    lines.push(`  ${tool.exposedName}${alias}${tool.description === undefined ? '' : ` — ${tool.description.split('\n')[0]}`}`);
    lines.push(
      ...JSON.stringify(tool.inputSchema, null, 2)
        .split('\n')
        .map((line) => `    ${line}`),
    );
  }
  for (const tool of skipped) lines.push(`  (left out: ${tool.name}: ${tool.reason})`);
  return `${lines.join('\n')}\n\n`;
}
