import { DEFAULT_MAX_TURNS, type Completion, type Limits, type PermissionRules } from '@troupe/core';
import { isScalar } from 'yaml';
import { parseToolSelector } from '@troupe/mcp';
import { AGENT_PLACEMENTS, type AgentConfig } from './graph-config.js';
import { AGENT_RUN_FIELDS, applyRunSettings } from './agent-run-schema.js';
import { readAgentTools } from './agent-tools-schema.js';
import { readCompaction } from './compaction-schema.js';
import { GRAPH_NAME, graphNameSchema } from './graph-names.js';
import { field, objectReader } from './object-reader.js';
import type { ReadContext, Slot } from './read-context.js';
import { definition, entryReader, reader, type EntryReader, type MapEntry, type Reader } from './reader.js';
import { readSandbox } from './sandbox-schema.js';
import { readPath } from './tool-settings-schema.js';
import {
  oneOfReader,
  readNonNegativeInteger,
  readPositiveInteger,
  readPositiveNumber,
  readString,
  recordReader,
  referenceReader,
  reportType,
  uniqueListReader,
} from './yaml-readers.js';

/** A turn cap: a positive integer, or `unlimited` (YAML's `.inf` too) for none. */
const readMaxTurns: Reader<number> = reader(
  (scope) => ({ anyOf: [readPositiveInteger.schema(scope), { const: 'unlimited' }] }),
  (ctx, slot) => {
    const value = slot.node !== null && isScalar(slot.node) ? slot.node.value : undefined;
    if (value === 'unlimited' || value === Number.POSITIVE_INFINITY) return Number.POSITIVE_INFINITY;
    // `${MAX_TURNS:-5}`: substituted and read as a number, like every other number field.
    if (typeof value === 'string' && value.includes('${')) return readPositiveInteger(ctx, slot);
    if (typeof value === 'number' && Number.isInteger(value) && value >= 1) return value;
    return reportType(ctx, slot, 'a positive integer or "unlimited"', `without maxTurns a run stops after ${DEFAULT_MAX_TURNS} model calls`);
  },
);

/** The keys of an agent's `limits` (`Limits`). */
export const LIMITS_FIELDS = {
  maxTurns: field(readMaxTurns, { description: 'Model calls per run; "unlimited" (or .inf) for no cap. Default 50.' }),
  maxTokens: field(readPositiveInteger, { description: 'Input and output tokens per run, summed over its model calls.' }),
  maxWallTimeMs: field(readPositiveInteger, { description: 'How long a run may take, in milliseconds.' }),
  maxCost: field(readPositiveNumber, { description: 'Dollars per run.' }),
};

const readLimits: Reader<Limits> = objectReader(LIMITS_FIELDS);

const readVerdict = oneOfReader(['allow', 'ask', 'deny']);

/** The agents it may delegate to: known agent names, each at most once. */
const readDelegates: Reader<string[]> = uniqueListReader(readString, 'agent', (ctx, name, slot) => ctx.refer('agent', name, slot));

const readSupervisionFields = objectReader({
  retries: field(readNonNegativeInteger, { default: 0, description: 'How many times a failed child is started again.' }),
  backoffMs: field(readNonNegativeInteger, { default: 1000, description: 'The pause before each retry, in milliseconds.' }),
});
const readSupervision: Reader<{ retries: number; backoffMs: number }> = reader(readSupervisionFields.schema, (ctx, slot) => {
  const values = readSupervisionFields(ctx, slot);
  return values === undefined ? undefined : { retries: values.retries ?? 0, backoffMs: values.backoffMs ?? 1000 };
});

const readPermissionFields = objectReader({
  mode: field(oneOfReader(['allow', 'ask', 'deny', 'smart']), { required: true }),
  tools: field(
    recordReader(
      entryReader(readVerdict.schema, (ctx, entry) => {
        referPermissionKey(ctx, entry);
        return readVerdict(ctx, entry.slot);
      }),
    ),
    { description: "Verdicts by tool: a built-in tool, a module's tool, or an MCP tool as server.tool, server.* or server__tool." },
  ),
});

const readPermissions: Reader<PermissionRules> = reader(readPermissionFields.schema, (ctx, slot) => {
  const values = readPermissionFields(ctx, slot);
  if (values?.mode === undefined) return undefined;
  const rules: PermissionRules = { mode: values.mode };
  if (values.tools !== undefined) rules.tools = values.tools;
  return rules;
});

const readPlacement = oneOfReader(AGENT_PLACEMENTS);

const readCompletion = oneOfReader<Completion>(['reply', 'task']);

/** The built-in tool that ends a run in task mode. */
const TASK_COMPLETE_TOOL = 'task_complete';

/** The keys of an agent entry, with their readers. */
export const AGENT_FIELDS = {
  model: field(referenceReader('model'), { required: true, missingHint: 'name one of the keys of "models"', description: 'A key of models.' }),
  system: field(readString, { description: 'The system prompt.' }),
  tools: field(readAgentTools, {
    description: 'Built-in tool names (or { name: settings }), MCP selectors server.* / server.tool, and tool modules ({ module: ./tools/x.ts }).',
  }),
  workspace: field(readPath, { description: 'The root file tools are confined to, relative to this file.' }),
  limits: field(readLimits, { description: 'Caps on each run; one that is reached ends the run cleanly.' }),
  permissions: field(readPermissions, {
    description: 'How tool calls are vetted. Default: smart (read-only tools run, the others ask); a read-only tool is never asked about in any mode but deny.',
  }),
  compaction: field(readCompaction, {
    description: "How the context is compacted near the context window (and after an overflow). Default: at 80%, all three steps, the agent's own model.",
  }),
  description: field(readString, { description: 'What the agent does, shown to agents that delegate to it.' }),
  delegates: field(readDelegates, { description: 'Agents it may delegate to (delegate_to_<name> tools).' }),
  maxDepth: field(readPositiveInteger, { description: 'How deep delegations starting from it may go.' }),
  supervision: field(readSupervision, { description: 'How a failed child of this agent is retried.' }),
  placement: field(readPlacement, {
    default: 'local',
    description: "Where its actors run: local (the spawner's process) or remote (workers over NATS when the run uses NATS; local without NATS).",
  }),
  sandbox: field(readSandbox, {
    description:
      'How its tools’ processes (bash) are confined: off, auto (the default: in an OS sandbox where supported) or required, or { mode, network: { allow }, allowWrite, denyRead }.',
  }),
  concurrency: field(readPositiveInteger, { description: 'The most actors of this agent one process (or worker) runs at once; further ones wait their turn.' }),
  completion: field(readCompletion, {
    default: 'reply',
    description: 'What ends a run: a reply without tool calls (reply), or only task_complete (task; the agent gets the tool and is reminded to call it).',
  }),
  stepDelayMs: field(readNonNegativeInteger, { description: 'The pause before each model call of a run after its first, in milliseconds.' }),
  ...AGENT_RUN_FIELDS,
};

const readAgentFields = objectReader(AGENT_FIELDS);

/**
 * A key of `permissions.tools`: a built-in tool, or an MCP tool as `server.tool`, `server.*` or
 * its exposed name `server__tool`; MCP keys are checked against `mcpServers`.
 */
function referPermissionKey(ctx: ReadContext, entry: MapEntry): void {
  const selector = parseToolSelector(entry.key);
  const exposed = /^([A-Za-z0-9_-]+?)__./.exec(entry.key);
  if (selector !== undefined) ctx.refer('mcpServer', selector.server, keySlot(entry));
  else if (exposed?.[1] !== undefined) ctx.refer('mcpServer', exposed[1], keySlot(entry));
  else ctx.refer('tool', entry.key, keySlot(entry));
}

function keySlot(entry: MapEntry): Slot {
  return entry.slot.key === undefined ? entry.slot : { path: entry.slot.path, node: entry.slot.key };
}

/**
 * One entry of `agents`: `model` (a key of `models`), `system`, `tools` (built-in names with
 * optional settings, MCP selectors and tool modules), `workspace`, `limits`, `permissions`,
 * `compaction`, the delegation settings, where its actors run (`placement`, `concurrency`), what
 * ends its runs (`completion`, `stepDelayMs`), and how they run (see `AGENT_RUN_FIELDS`: retries,
 * tool execution, queue modes, output schema, guardrails). The key is the agent's name and must be a
 * valid path segment.
 */
export const readAgent: EntryReader<AgentConfig> = entryReader(definition('agent', readAgentFields.schema), readAgentEntry, { keys: graphNameSchema });

function readAgentEntry(ctx: ReadContext, entry: MapEntry): AgentConfig | undefined {
  ctx.define('agent', entry.key);
  const nameOk = GRAPH_NAME.test(entry.key);
  if (!nameOk) ctx.report(keySlot(entry), `invalid agent name "${entry.key}"`, 'use letters, digits, "_", "-" and "."');
  const values = readAgentFields(ctx, entry.slot);
  const modules = values?.tools?.modules ?? [];
  for (const module of modules) ctx.state.toolModules.push({ agent: entry.key, file: module.file, shown: module.shown, slot: module.slot, source: ctx.source });
  if (!nameOk || values?.model === undefined) return undefined;
  const agent: AgentConfig = { name: entry.key, model: values.model, tools: values.tools?.tools ?? [] };
  if (values.tools !== undefined && values.tools.mcpTools.length > 0) agent.mcpTools = values.tools.mcpTools;
  if (values.tools !== undefined && Object.keys(values.tools.toolSettings).length > 0) agent.toolSettings = values.tools.toolSettings;
  if (modules.length > 0) agent.toolModules = modules.map((module) => module.file);
  if (values.workspace !== undefined) agent.workspace = values.workspace;
  if (values.system !== undefined) agent.systemPrompt = values.system;
  if (values.limits !== undefined) agent.limits = values.limits;
  if (values.permissions !== undefined) agent.permissions = values.permissions;
  if (values.compaction !== undefined) agent.compaction = values.compaction;
  if (values.description !== undefined) agent.description = values.description;
  if (values.delegates !== undefined && values.delegates.length > 0) agent.delegates = values.delegates;
  if (values.maxDepth !== undefined) agent.maxDepth = values.maxDepth;
  if (values.supervision !== undefined) agent.supervision = values.supervision;
  if (values.placement !== undefined) agent.placement = values.placement;
  if (values.sandbox !== undefined) agent.sandbox = values.sandbox;
  if (values.concurrency !== undefined) agent.concurrency = values.concurrency;
  if (values.completion !== undefined) agent.completion = values.completion;
  // A task ends only when the agent says so: it needs the tool to say it with.
  if (values.completion === 'task' && !agent.tools.includes(TASK_COMPLETE_TOOL)) agent.tools = [...agent.tools, TASK_COMPLETE_TOOL];
  if (values.stepDelayMs !== undefined) agent.stepDelayMs = values.stepDelayMs;
  applyRunSettings(agent, values);
  return agent;
}
