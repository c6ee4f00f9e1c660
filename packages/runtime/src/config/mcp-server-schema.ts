import { MCP_SERVER_NAME, type McpServerConfig } from '@troupe/mcp';
import { isMap } from 'yaml';
import { field, objectReader } from './object-reader.js';
import type { ReadContext, Slot } from './read-context.js';
import { readPath } from './tool-settings-schema.js';
import { listReader, oneOfReader, readBoolean, readPositiveInteger, readSecret, readString, recordReader, type MapEntry, type Reader } from './yaml-readers.js';

const readUrl: Reader<string> = (ctx, slot) => {
  const text = readString(ctx, slot);
  if (text === undefined) return undefined;
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    ctx.report(slot, `${slot.path} is not a URL: ${JSON.stringify(text)}`, 'for example "https://mcp.example.com/mcp"');
    return undefined;
  }
  if (url.protocol === 'http:' || url.protocol === 'https:') return text;
  ctx.report(slot, `${slot.path} must be an http or https URL, got ${JSON.stringify(text)}`);
  return undefined;
};

const readPrefix: Reader<string> = (ctx, slot) => {
  const prefix = readString(ctx, slot);
  if (prefix === undefined || /^[A-Za-z0-9_-]*$/.test(prefix)) return prefix;
  ctx.report(slot, `${slot.path} may only hold letters, digits, "_" and "-"`, 'model APIs accept no other characters in tool names');
  return undefined;
};

/** `env` and `headers`: values only a run needs, so an unset variable in them is a missing key. */
const readSecrets = recordReader((ctx, entry) => readSecret(ctx, entry.slot));

const readServerFields = objectReader({
  type: field(oneOfReader(['stdio', 'http', 'sse'])),
  command: field(readString),
  args: field(listReader(readString)),
  env: field(readSecrets),
  cwd: field(readPath),
  url: field(readUrl),
  headers: field(readSecrets),
  bearerToken: field(readSecret),
  toolPrefix: field(readPrefix),
  timeoutMs: field(readPositiveInteger),
  trustAnnotations: field(readBoolean),
});

const STDIO_ONLY = ['args', 'env', 'cwd'] as const;
const HTTP_ONLY = ['headers', 'bearerToken'] as const;

/**
 * One entry of `mcpServers`, in the shape of `.mcp.json` files: a stdio server (`command`,
 * `args`, `env`, `cwd` relative to the graph file) or an HTTP one (`url`, `headers`,
 * `bearerToken`; `type: sse` for legacy servers), plus troupe's `toolPrefix`, `timeoutMs` and
 * `trustAnnotations`. The key names the server in selectors (`github.*`), so it may not hold dots.
 */
export function readMcpServer(ctx: ReadContext, entry: MapEntry): McpServerConfig | undefined {
  ctx.define('mcpServer', entry.key);
  const owner: Slot = entry.slot.key === undefined ? entry.slot : { path: entry.slot.path, node: entry.slot.key };
  const nameOk = MCP_SERVER_NAME.test(entry.key);
  if (!nameOk) ctx.report(owner, `invalid MCP server name "${entry.key}"`, 'use letters, digits, "_" and "-" (tools are selected as server.tool)');
  const values = readServerFields(ctx, entry.slot);
  if (values === undefined || !nameOk) return undefined;
  const node = entry.slot.node;
  const has = (key: string): boolean => node !== null && isMap(node) && node.has(key);
  const path = entry.slot.path;
  if (has('command') === has('url')) {
    ctx.report(owner, has('command') ? `${path} has both "command" and "url"` : `${path} needs "command" (a stdio server) or "url" (an HTTP server)`);
    return undefined;
  }
  const stdio = has('command');
  if (values.type !== undefined && (values.type === 'stdio') !== stdio) {
    ctx.report(owner, `${path} has type "${values.type}" but ${stdio ? '"command"' : '"url"'}`, values.type === 'stdio' ? 'a stdio server needs "command"' : 'an HTTP server needs "url"');
    return undefined;
  }
  for (const key of stdio ? HTTP_ONLY : STDIO_ONLY) {
    if (has(key)) ctx.report(owner, `"${key}" in ${path} only applies to ${stdio ? 'HTTP' : 'stdio'} servers`);
  }
  const common = {
    ...(values.toolPrefix === undefined ? {} : { toolPrefix: values.toolPrefix }),
    ...(values.timeoutMs === undefined ? {} : { timeoutMs: values.timeoutMs }),
    ...(values.trustAnnotations === undefined ? {} : { trustAnnotations: values.trustAnnotations }),
  };
  if (stdio) {
    if (values.command === undefined) return undefined;
    return {
      command: values.command,
      ...(values.args === undefined ? {} : { args: values.args }),
      ...(values.env === undefined ? {} : { env: values.env }),
      ...(values.cwd === undefined ? {} : { cwd: values.cwd }),
      ...common,
    };
  }
  if (values.url === undefined) return undefined;
  return {
    url: values.url,
    ...(values.type === 'http' || values.type === 'sse' ? { type: values.type } : {}),
    ...(values.headers === undefined ? {} : { headers: values.headers }),
    ...(values.bearerToken === undefined ? {} : { bearerToken: values.bearerToken }),
    ...common,
  };
}
