import type { Tool, ToolResult } from '@troupe/core';
import type { McpClient } from '../connection/mcp-client.js';
import type { McpToolInfo } from '../mcp-types.js';

/**
 * A core tool for one tool of an MCP server. Its name, description and schema are the listing's
 * (the schema passed on unchanged); calling it calls the server's tool by its own name through
 * `client`, which connects or reconnects as needed, turns the abort signal into an MCP
 * cancellation and progress notifications into `ctx.progress` lines. It never throws: transport
 * failures, crashes and server errors come back as error results. `readOnly` and `idempotent`
 * only when the caller trusts the server's `readOnlyHint` and `idempotentHint`.
 */
export function createMcpTool(client: McpClient, info: McpToolInfo, options: { trustAnnotations: boolean }): Tool {
  const tool: Tool = {
    name: info.exposedName,
    label: info.title ?? info.name,
    description: info.description ?? info.title ?? `The ${info.name} tool of the MCP server "${client.name}".`,
    parameters: info.inputSchema,
    readOnly: options.trustAnnotations && info.annotations?.['readOnlyHint'] === true,
    idempotent: options.trustAnnotations && info.annotations?.['idempotentHint'] === true,
    execute(args, ctx): Promise<ToolResult> {
      return client.callTool(info.name, args, {
        signal: ctx.signal,
        onProgress: (p) => ctx.progress(p.message ?? (p.total === undefined ? `${p.progress}` : `${p.progress}/${p.total}`)),
      });
    },
  };
  return tool;
}
