import { isScalar } from 'yaml';
import { readAgent } from './agent-schema.js';
import { SUPPORTED_GRAPH_VERSIONS, type AgentConfig, type GraphVersion } from './graph-config.js';
import { readModel, type ModelDraft } from './model-schema.js';
import { field, objectReader } from './object-reader.js';
import type { ReadContext, Slot } from './read-context.js';
import { readString, recordReader, reportType, type Reader } from './yaml-readers.js';

/** A graph as read from its file: what could be read, before script files and references are resolved. */
export interface GraphDraft {
  version?: GraphVersion;
  models: Record<string, ModelDraft>;
  agents: Record<string, AgentConfig>;
  entry?: string;
}

const supported = SUPPORTED_GRAPH_VERSIONS.join(', ');

const readVersion: Reader<GraphVersion> = (ctx, slot) => {
  const value = slot.node !== null && isScalar(slot.node) ? slot.node.value : undefined;
  if (typeof value !== 'number') return reportType(ctx, slot, `the number ${supported}`);
  if (!(SUPPORTED_GRAPH_VERSIONS as readonly number[]).includes(value)) {
    ctx.report(slot, `unsupported version ${value}`, `this troupe reads version ${supported}`);
    return undefined;
  }
  return value as GraphVersion;
};

const readEntry: Reader<string> = (ctx, slot) => {
  const name = readString(ctx, slot);
  if (name !== undefined) ctx.refer('agent', name, slot);
  return name;
};

/**
 * The sections of a graph file, version 1. Sections the format will grow (`mcpServers`,
 * `pipelines`) are reserved, so a file that uses them is told they are not supported yet; each
 * new section is one more field here plus its own schema file.
 */
const readGraphFields = objectReader(
  {
    version: field(readVersion, { required: true, missingHint: 'add "version: 1" at the top of the file' }),
    models: field(recordReader(readModel, { nonEmpty: true }), { required: true }),
    agents: field(recordReader(readAgent, { nonEmpty: true }), { required: true }),
    entry: field(readEntry),
  },
  {
    reserved: {
      mcpServers: 'MCP servers come in a later version of troupe',
      pipelines: 'pipelines come in a later version of troupe',
    },
  },
);

/**
 * Reads a whole graph document, reporting every problem to `ctx`. The agent to run is
 * `entryOverride` when given, else the file's `entry`, which may be left out when the file
 * defines exactly one agent. (An override is checked by the caller once definitions are known.)
 */
export function readGraph(ctx: ReadContext, entryOverride?: string): GraphDraft {
  const root: Slot = ctx.rootSlot();
  if (root.node === null || ctx.source.isEmpty(root.node)) {
    ctx.report(root, 'the file is empty', 'a graph file starts with "version: 1" and defines models and agents');
    return { models: {}, agents: {} };
  }
  const values = readGraphFields(ctx, root) ?? {};
  const draft: GraphDraft = { models: values.models ?? {}, agents: values.agents ?? {} };
  if (values.version !== undefined) draft.version = values.version;
  const agents = [...(ctx.state.definitions.get('agent') ?? [])];
  const [only] = agents;
  if (entryOverride !== undefined) draft.entry = entryOverride;
  else if (values.entry !== undefined) draft.entry = values.entry;
  else if (agents.length === 1 && only !== undefined) draft.entry = only;
  else if (agents.length > 1) ctx.report(root, 'missing required key "entry" in the top level', `name the agent to run: ${agents.join(', ')}`);
  return draft;
}
