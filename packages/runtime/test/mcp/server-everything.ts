/** Where the real @modelcontextprotocol/server-everything is installed, and a tool context to call its tools with. */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import type { RunId, AgentPath, ToolContext } from '@troupe/core';

const require = createRequire(import.meta.url);
const manifest = require.resolve('@modelcontextprotocol/server-everything/package.json');

/** The server's entry script (its `mcp-server-everything` bin), to run with `node <script> stdio`. */
export const everything = join(
  dirname(manifest),
  (JSON.parse(readFileSync(manifest, 'utf8')) as { bin: Record<string, string> }).bin['mcp-server-everything'] as string,
);

/** A context for calling a tool directly, outside an agent. */
export function toolContext(toolCallId = 'call_1'): ToolContext {
  return {
    toolCallId,
    runId: 'run_test' as RunId,
    agentPath: 'test' as AgentPath,
    sessionId: 'session_test',
    signal: new AbortController().signal,
    update: () => undefined,
    progress: () => undefined,
  };
}
