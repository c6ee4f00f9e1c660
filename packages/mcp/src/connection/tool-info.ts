import type { Tool as SdkTool } from '@modelcontextprotocol/sdk/types.js';
import { sharedSchemaValidator } from '@troupe/core';
import type { McpLogger } from '../mcp-logger.js';
import type { McpToolInfo } from '../mcp-types.js';
import { exposedToolName } from '../tools/tool-naming.js';

/** A listed tool the adapter will not expose, and why. */
export interface SkippedTool {
  name: string;
  reason: string;
}

/**
 * The tools of a listing as {@link McpToolInfo}, named with `prefix`. A tool whose input schema
 * no JSON Schema validator can compile, or whose exposed name another tool of the server already
 * took, is left out (an agent with an unusable schema could not be created) and reported.
 */
export function toolInfos(server: string, prefix: string, tools: readonly SdkTool[], logger: McpLogger): { tools: McpToolInfo[]; skipped: SkippedTool[] } {
  const out: McpToolInfo[] = [];
  const skipped: SkippedTool[] = [];
  const taken = new Set<string>();
  for (const tool of tools) {
    const exposedName = exposedToolName(prefix, tool.name);
    const inputSchema = tool.inputSchema as Record<string, unknown>;
    let reason: string | undefined;
    if (taken.has(exposedName)) reason = `its name becomes "${exposedName}", as another tool's does`;
    else {
      try {
        sharedSchemaValidator().compile(inputSchema);
      } catch (error) {
        reason = `its input schema cannot be used: ${error instanceof Error ? error.message : String(error)}`;
      }
    }
    if (reason !== undefined) {
      skipped.push({ name: tool.name, reason });
      logger.warn({ server, tool: tool.name, reason }, 'MCP tool left out');
      continue;
    }
    taken.add(exposedName);
    const info: McpToolInfo = { name: tool.name, exposedName, inputSchema };
    if (tool.title !== undefined) info.title = tool.title;
    if (tool.description !== undefined) info.description = tool.description;
    if (tool.outputSchema !== undefined) info.outputSchema = tool.outputSchema as Record<string, unknown>;
    if (tool.annotations !== undefined) info.annotations = { ...tool.annotations };
    out.push(info);
  }
  return { tools: out, skipped };
}

/** A comparable fingerprint of a tool list (names, descriptions and schemas). */
export function toolsSignature(tools: readonly McpToolInfo[]): string {
  return JSON.stringify(tools.map((t) => [t.exposedName, t.description ?? '', t.inputSchema]));
}
