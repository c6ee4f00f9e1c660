import { MCP_SERVER_NAME } from '@troupe/mcp';
import type { GraphMcpServer } from './graph-config.js';
import { readSandbox } from './sandbox-schema.js';
import { isMap } from 'yaml';
import { field, objectReader } from './object-reader.js';
import type { ReadContext, Slot } from './read-context.js';
import { definition, eachValue, entryReader, reader, type EntryReader, type MapEntry, type Reader } from './reader.js';
import { readPath } from './tool-settings-schema.js';
import { listReader, oneOfReader, readBoolean, readPositiveInteger, readSecret, readString, recordReader } from './yaml-readers.js';

const readUrl: Reader<string> = reader(readString.schema, (ctx, slot) => {
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
});

const TOOL_PREFIX = /^[A-Za-z0-9_-]*$/;

const readPrefix: Reader<string> = reader(
  // A `${NAME}` is substituted before the check, so the schema lets one through too.
  (scope) => scope.orVariable({ type: 'string', pattern: TOOL_PREFIX.source }),
  (ctx, slot) => {
    const prefix = readString(ctx, slot);
    if (prefix === undefined || TOOL_PREFIX.test(prefix)) return prefix;
    ctx.report(slot, `${slot.path} may only hold letters, digits, "_" and "-"`, 'model APIs accept no other characters in tool names');
    return undefined;
  },
);

/** `env` and `headers`: values only a run needs, so an unset variable in them is a missing key. */
const readSecrets = recordReader(eachValue(readSecret));

/** The keys of an `mcpServers` entry, with their readers. */
export const MCP_SERVER_FIELDS = {
  type: field(oneOfReader(['stdio', 'http', 'sse']), {
    description: 'stdio (with command), http or sse (legacy; with url); follows from command or url when left out.',
  }),
  command: field(readString, { description: 'The program of a stdio server.' }),
  args: field(listReader(readString)),
  env: field(readSecrets, { description: 'Environment variables of a stdio server.' }),
  cwd: field(readPath, { description: 'The working directory of a stdio server, relative to this file.' }),
  url: field(readUrl, { description: 'The http(s) URL of an HTTP server.' }),
  headers: field(readSecrets, { description: 'HTTP headers sent to an HTTP server.' }),
  bearerToken: field(readSecret, { description: 'Sent as "Authorization: Bearer <token>" to an HTTP server.' }),
  toolPrefix: field(readPrefix, { description: 'Put before each tool name to make the name the model sees (default <server>__; "" keeps bare names).' }),
  timeoutMs: field(readPositiveInteger, { description: 'How long a tool call may go without a result or a progress notification (default 60000).' }),
  trustAnnotations: field(readBoolean, {
    description:
      'Whether its tool annotations are believed: a tool annotated readOnlyHint then counts as read-only, one annotated idempotentHint as safe to run again after a restore.',
  }),
  sandbox: field(readSandbox, {
    description: 'Runs a stdio server in an OS sandbox (off unless set): auto, required, or the whole policy, as for an agent; its cwd is its workspace.',
  }),
};

const readServerFields = objectReader(MCP_SERVER_FIELDS);

const STDIO_ONLY = ['args', 'env', 'cwd', 'sandbox'] as const;
const HTTP_ONLY = ['headers', 'bearerToken'] as const;

/**
 * One entry of `mcpServers`, in the shape of `.mcp.json` files: a stdio server (`command`,
 * `args`, `env`, `cwd` relative to the graph file) or an HTTP one (`url`, `headers`,
 * `bearerToken`; `type: sse` for legacy servers), plus troupe's `toolPrefix`, `timeoutMs` and
 * `trustAnnotations`. The key names the server in selectors (`github.*`), so it may not hold dots.
 */
export const readMcpServer: EntryReader<GraphMcpServer> = entryReader(definition('mcpServer', readServerFields.schema), readMcpServerEntry, {
  keys: { type: 'string', pattern: MCP_SERVER_NAME.source },
});

function readMcpServerEntry(ctx: ReadContext, entry: MapEntry): GraphMcpServer | undefined {
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
    ctx.report(
      owner,
      `${path} has type "${values.type}" but ${stdio ? '"command"' : '"url"'}`,
      values.type === 'stdio' ? 'a stdio server needs "command"' : 'an HTTP server needs "url"',
    );
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
      ...(values.sandbox === undefined ? {} : { sandbox: values.sandbox }),
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
