import { MCP_SERVER_NAME } from '../mcp-server-config.js';

/** A parsed `server.tool` or `server.*`. */
export interface ToolSelector {
  server: string;
  /** The server's tool name, or `*` for all of them. */
  tool: string;
}

/**
 * Parses a tool selector: the server's name, a dot, then a tool's name as the server lists it or
 * `*` for every tool of the server. `undefined` when the text is not one (no dot, a server name
 * with characters other than letters, digits, `_` and `-`, or nothing after the dot).
 */
export function parseToolSelector(text: string): ToolSelector | undefined {
  const dot = text.indexOf('.');
  if (dot <= 0 || dot === text.length - 1) return undefined;
  const server = text.slice(0, dot);
  if (!MCP_SERVER_NAME.test(server)) return undefined;
  return { server, tool: text.slice(dot + 1) };
}
