import { parseToolSelector } from '@troupe/mcp';
import { isMap, isScalar, isSeq, type Node } from 'yaml';
import type { ReadContext, Slot } from './read-context.js';
import { definition, reader, type Reader } from './reader.js';
import type { JsonSchema, SchemaScope } from './schema-scope.js';
import { pathFromFile, readToolSettings, toolSettingsSchema } from './tool-settings-schema.js';
import { readEntries, readString, reportType } from './yaml-readers.js';

/** An agent's `tools` list, split by kind. */
export interface AgentTools {
  /** Built-in tool names, in the order written. */
  tools: string[];
  /** MCP tool selectors (`server.*`, `server.tool`), in the order written. */
  mcpTools: string[];
  /** Settings of built-in tools, by name (`- bash: { timeoutMs: 5000 }`). */
  toolSettings: Record<string, Record<string, unknown>>;
  /** Tool modules (`- module: ./tools/weather.ts`), in the order written: absolute path, the path as written, and where. */
  modules: ToolModuleItem[];
}

/** One `- module: <path>` item of an agent's tools. */
export interface ToolModuleItem {
  /** Absolute (relative paths are taken from the graph file's directory). */
  file: string;
  /** As the graph file writes it, for messages. */
  shown: string;
  slot: Slot;
}

/** The key that makes a tools item a tool module rather than a tool with settings. */
const MODULE_KEY = 'module';

const TOOL_MODULE: JsonSchema = {
  type: 'object',
  description: 'A tool module: TypeScript or JavaScript whose exported tools the agent gets (default export or named exports).',
  properties: { [MODULE_KEY]: { type: 'string', description: "The module's path, relative to this file." } },
  required: [MODULE_KEY],
  additionalProperties: false,
};

/**
 * The schema of one item of an agent's `tools`: a name (a built-in tool, a module's tool or an MCP
 * selector), a tool module, a built-in tool of the scope's catalog with the settings it declares,
 * or any other tool (a module's) with a mapping of settings. MCP selectors take no settings, so a
 * name with a dot cannot have any.
 */
function toolItemSchema(scope: SchemaScope): JsonSchema {
  const catalog = scope.tools;
  const described = (catalog?.names() ?? []).flatMap((name) => {
    const spec = catalog?.settingsOf?.(name);
    return spec === undefined ? [] : [{ name, schema: toolSettingsSchema(spec, scope) }];
  });
  const withSettings = described.map(({ name, schema }) => ({ type: 'object', properties: { [name]: schema }, required: [name], additionalProperties: false }));
  const other: JsonSchema = {
    type: 'object',
    minProperties: 1,
    maxProperties: 1,
    propertyNames: { pattern: '^[^.]*$', not: { enum: [MODULE_KEY, ...described.map(({ name }) => name)] } },
    additionalProperties: { type: 'object' },
  };
  return { anyOf: [{ type: 'string' }, TOOL_MODULE, ...withSettings, other] };
}

/**
 * An agent's `tools`: a list whose items are built-in tool names (`read_file`), MCP selectors
 * (`github.*` or `github.create_issue`, the server being a key of `mcpServers`), one-key
 * mappings giving a built-in tool its settings (`- bash: { timeoutMs: 5000 }`), or tool modules
 * (`- module: ./tools/weather.ts`, loaded once the file is read). Unknown names and servers are
 * recorded for the reference check; duplicates, malformed selectors and bad settings are
 * reported at their positions. Which tools a server offers is only known once it runs.
 */
export const readAgentTools: Reader<AgentTools> = reader(
  (scope) => ({ type: 'array', items: definition('tool', toolItemSchema)(scope) }),
  (ctx, slot) => {
    const node = slot.node;
    if (node === null || !isSeq(node)) return reportType(ctx, slot, 'a list');
    const out: AgentTools = { tools: [], mcpTools: [], toolSettings: {}, modules: [] };
    const seen = new Set<string>();
    (node.items as (Node | null)[]).forEach((raw, index) => {
      const item: Slot = { path: `${slot.path}[${index}]`, node: ctx.source.resolve(raw) };
      const named = nameOf(ctx, item);
      if (named === undefined) return;
      const { name, at, settings } = named;
      if (name === MODULE_KEY && settings !== undefined) {
        const module = readModule(ctx, settings, seen);
        if (module !== undefined) out.modules.push(module);
        return;
      }
      if (seen.has(name)) {
        ctx.report(at, `duplicate tool "${name}" in ${slot.path}`);
        return;
      }
      seen.add(name);
      if (name.includes('.')) {
        const selector = parseToolSelector(name);
        if (selector === undefined) {
          ctx.report(at, `"${name}" in ${at.path} is not a tool name or an MCP selector`, 'write a built-in tool name, server.tool or server.*');
          return;
        }
        ctx.refer('mcpServer', selector.server, at);
        if (settings !== undefined) ctx.report(at, `MCP tools take no settings in ${at.path}`, 'set timeouts and the like on the server under "mcpServers"');
        out.mcpTools.push(name);
        return;
      }
      ctx.refer('tool', name, at);
      out.tools.push(name);
      if (settings === undefined) return;
      const catalog = ctx.state.tools;
      const known = catalog?.names().includes(name) === true;
      const values = readToolSettings(ctx, settings, name, known ? catalog?.settingsOf?.(name) : undefined);
      if (values !== undefined && Object.keys(values).length > 0) out.toolSettings[name] = values;
    });
    return out;
  },
);

/** The name of one item (a string, or the key of a one-key mapping with the settings under it). */
function nameOf(ctx: ReadContext, item: Slot): { name: string; at: Slot; settings?: Slot } | undefined {
  const node = item.node;
  if (node !== null && isScalar(node) && typeof node.value === 'string') {
    const name = ctx.interpolate(node.value, item);
    return name === undefined ? undefined : { name, at: item };
  }
  if (node !== null && isMap(node)) {
    const entries = readEntries(ctx, item);
    if (entries === undefined) return undefined;
    const [entry, extra] = entries;
    if (entry === undefined || extra !== undefined) {
      ctx.report(item, `${item.path} must name one tool with its settings, as "- bash: { timeoutMs: 5000 }"`);
      return undefined;
    }
    const at: Slot = entry.slot.key === undefined ? item : { path: item.path, node: entry.slot.key };
    return { name: entry.key, at, settings: entry.slot };
  }
  return reportType(ctx, item, 'a tool name or a mapping of one tool name to its settings');
}

/** A `module: <path>` item: the path resolved against the graph file's directory, each module once per agent. */
function readModule(ctx: ReadContext, slot: Slot, seen: Set<string>): ToolModuleItem | undefined {
  const shown = readString(ctx, slot);
  if (shown === undefined) return undefined;
  const file = pathFromFile(ctx, shown);
  if (seen.has(file)) {
    ctx.report(slot, `duplicate tool module ${shown} in ${slot.path}`);
    return undefined;
  }
  seen.add(file);
  return { file, shown, slot };
}
