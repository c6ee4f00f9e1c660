import type { McpServerConfig } from '@troupe/mcp';
import { isScalar } from 'yaml';
import { readAgent } from './agent-schema.js';
import { SUPPORTED_GRAPH_VERSIONS, type AgentConfig, type GraphVersion, type PipelineConfig } from './graph-config.js';
import { readPipeline } from './pipeline-schema.js';
import { readMcpServer } from './mcp-server-schema.js';
import { readModel, type ModelDraft } from './model-schema.js';
import { field, objectReader } from './object-reader.js';
import type { ReadContext, Slot } from './read-context.js';
import { readString, recordReader, reportType, type Reader } from './yaml-readers.js';

/** A graph as read from its file: what could be read, before script files and references are resolved. */
export interface GraphDraft {
  version?: GraphVersion;
  models: Record<string, ModelDraft>;
  agents: Record<string, AgentConfig>;
  mcpServers?: Record<string, McpServerConfig>;
  pipelines?: Record<string, PipelineConfig>;
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
  if (name !== undefined) ctx.refer('entry', name, slot);
  return name;
};

/** The sections of a graph file, version 1; each section is one field here plus its own schema file. */
const readGraphFields = objectReader(
  {
    version: field(readVersion, { required: true, missingHint: 'add "version: 1" at the top of the file' }),
    models: field(recordReader(readModel, { nonEmpty: true }), { required: true }),
    agents: field(recordReader(readAgent, { nonEmpty: true }), { required: true }),
    entry: field(readEntry),
    mcpServers: field(recordReader(readMcpServer)),
    pipelines: field(recordReader(readPipeline)),
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
  if (values.mcpServers !== undefined) draft.mcpServers = values.mcpServers;
  if (values.pipelines !== undefined) draft.pipelines = values.pipelines;
  for (const name of Object.keys(values.pipelines ?? {})) {
    if (ctx.state.definitions.get('agent')?.has(name) === true) ctx.report(root, `"${name}" is both an agent and a pipeline`, 'agents and pipelines share one namespace: rename one');
  }
  const runnable = [...(ctx.state.definitions.get('agent') ?? []), ...(ctx.state.definitions.get('pipeline') ?? [])];
  const [only] = runnable;
  if (entryOverride !== undefined) draft.entry = entryOverride;
  else if (values.entry !== undefined) draft.entry = values.entry;
  else if (runnable.length === 1 && only !== undefined) draft.entry = only;
  else if (runnable.length > 1) ctx.report(root, 'missing required key "entry" in the top level', `name the agent or pipeline to run: ${runnable.join(', ')}`);
  return draft;
}
