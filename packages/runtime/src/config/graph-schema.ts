import { isScalar } from 'yaml';
import { readAgent } from './agent-schema.js';
import { SUPPORTED_GRAPH_VERSIONS, type AgentConfig, type GraphMcpServer, type GraphVersion, type PipelineConfig } from './graph-config.js';
import { readPipeline } from './pipeline-schema.js';
import { readMcpServer } from './mcp-server-schema.js';
import { readModel, type ModelDraft } from './model-schema.js';
import { field, objectReader } from './object-reader.js';
import type { ReadContext, Slot } from './read-context.js';
import { reader, type Reader } from './reader.js';
import { recordReader, referenceReader, reportType } from './yaml-readers.js';

/** A graph as read from its file: what could be read, before script files and references are resolved. */
export interface GraphDraft {
  version?: GraphVersion;
  models: Record<string, ModelDraft>;
  agents: Record<string, AgentConfig>;
  mcpServers?: Record<string, GraphMcpServer>;
  pipelines?: Record<string, PipelineConfig>;
  entry?: string;
}

const supported = SUPPORTED_GRAPH_VERSIONS.join(', ');

const readVersion: Reader<GraphVersion> = reader({ enum: [...SUPPORTED_GRAPH_VERSIONS] }, (ctx, slot) => {
  const value = slot.node !== null && isScalar(slot.node) ? slot.node.value : undefined;
  if (typeof value !== 'number') return reportType(ctx, slot, `the number ${supported}`);
  if (!(SUPPORTED_GRAPH_VERSIONS as readonly number[]).includes(value)) {
    ctx.report(slot, `unsupported version ${value}`, `this troupe reads version ${supported}`);
    return undefined;
  }
  return value as GraphVersion;
});

/** The sections of a graph file, version 1; each section is one field here plus its own schema file. */
export const GRAPH_FIELDS = {
  version: field(readVersion, { required: true, missingHint: 'add "version: 1" at the top of the file', description: 'The format version.' }),
  models: field(recordReader(readModel, { nonEmpty: true }), { required: true, description: 'Named models; agents refer to them by key.' }),
  agents: field(recordReader(readAgent, { nonEmpty: true }), {
    required: true,
    description: "Named agents; the key is the agent's name in event paths (lead/researcher#2).",
  }),
  entry: field(referenceReader('entry'), { description: 'The agent or pipeline `troupe run` starts (optional when there is only one).' }),
  mcpServers: field(recordReader(readMcpServer), {
    description: 'MCP servers, in the shape of .mcp.json files; agents select tools with server.* or server.tool.',
  }),
  pipelines: field(recordReader(readPipeline), { description: 'Named pipelines of agent, parallel and map steps; they share one namespace with agents.' }),
};

/** The top level of a graph file; its JSON Schema is the body of the published one (see `graphJsonSchema`). */
export const readGraphFields = objectReader(GRAPH_FIELDS);

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
  if (values.mcpServers !== undefined) draft.mcpServers = values.mcpServers;
  if (values.pipelines !== undefined) draft.pipelines = values.pipelines;
  for (const name of Object.keys(values.pipelines ?? {})) {
    if (ctx.state.definitions.get('agent')?.has(name) === true)
      ctx.report(root, `"${name}" is both an agent and a pipeline`, 'agents and pipelines share one namespace: rename one');
  }
  const runnable = [...(ctx.state.definitions.get('agent') ?? []), ...(ctx.state.definitions.get('pipeline') ?? [])];
  const [only] = runnable;
  if (entryOverride !== undefined) draft.entry = entryOverride;
  else if (values.entry !== undefined) draft.entry = values.entry;
  else if (runnable.length === 1 && only !== undefined) draft.entry = only;
  else if (runnable.length > 1) ctx.report(root, 'missing required key "entry" in the top level', `name the agent or pipeline to run: ${runnable.join(', ')}`);
  return draft;
}
