import { DEFAULT_MAX_TURNS, type Completion, type Limits, type PermissionRules } from '@troupe/core';
import { isScalar } from 'yaml';
import { parseToolSelector } from '@troupe/mcp';
import { AGENT_PLACEMENTS, type AgentConfig } from './graph-config.js';
import { AGENT_RUN_FIELDS, applyRunSettings } from './agent-run-schema.js';
import { readAgentTools } from './agent-tools-schema.js';
import { readCompaction } from './compaction-schema.js';
import { field, objectReader } from './object-reader.js';
import type { ReadContext, Slot } from './read-context.js';
import { readPath } from './tool-settings-schema.js';
import {
  listReader, oneOfReader, readNonNegativeInteger, readPositiveInteger, readPositiveNumber, readString, recordReader, referenceReader, reportType, uniqueListReader, type MapEntry, type Reader,
} from './yaml-readers.js';

/** Agent names become path segments (`lead/researcher#2`), so they are kept to this alphabet. */
const AGENT_NAME = /^[A-Za-z0-9_.-]+$/;

/** A turn cap: a positive integer, or `unlimited` (YAML's `.inf` too) for none. */
const readMaxTurns: Reader<number> = (ctx, slot) => {
  const value = slot.node !== null && isScalar(slot.node) ? slot.node.value : undefined;
  if (value === 'unlimited' || value === Number.POSITIVE_INFINITY) return Number.POSITIVE_INFINITY;
  // `${MAX_TURNS:-5}`: substituted and read as a number, like every other number field.
  if (typeof value === 'string' && value.includes('${')) return readPositiveInteger(ctx, slot);
  if (typeof value === 'number' && Number.isInteger(value) && value >= 1) return value;
  return reportType(ctx, slot, 'a positive integer or "unlimited"', `without maxTurns a run stops after ${DEFAULT_MAX_TURNS} model calls`);
};

const readLimits: Reader<Limits> = objectReader({
  maxTurns: field(readMaxTurns),
  maxTokens: field(readPositiveInteger),
  maxWallTimeMs: field(readPositiveInteger),
  maxCost: field(readPositiveNumber),
});

const readVerdict = oneOfReader(['allow', 'ask', 'deny']);

/** The agents it may delegate to: known agent names, each at most once. */
const readDelegates: Reader<string[]> = uniqueListReader(readString, 'agent', (ctx, name, slot) => ctx.refer('agent', name, slot));

const readSupervisionFields = objectReader({ retries: field(readNonNegativeInteger), backoffMs: field(readNonNegativeInteger) });
const readSupervision: Reader<{ retries: number; backoffMs: number }> = (ctx, slot) => {
  const values = readSupervisionFields(ctx, slot);
  return values === undefined ? undefined : { retries: values.retries ?? 0, backoffMs: values.backoffMs ?? 1000 };
};

const readPermissionFields = objectReader({
  mode: field(oneOfReader(['allow', 'ask', 'deny', 'smart']), { required: true }),
  tools: field(
    recordReader((ctx, entry) => {
      referPermissionKey(ctx, entry);
      return readVerdict(ctx, entry.slot);
    }),
  ),
});

const readPermissions: Reader<PermissionRules> = (ctx, slot) => {
  const values = readPermissionFields(ctx, slot);
  if (values?.mode === undefined) return undefined;
  const rules: PermissionRules = { mode: values.mode };
  if (values.tools !== undefined) rules.tools = values.tools;
  return rules;
};

const readPlacement = oneOfReader(AGENT_PLACEMENTS);

const readCompletion = oneOfReader<Completion>(['reply', 'task']);

/** The built-in tool that ends a run in task mode. */
const TASK_COMPLETE_TOOL = 'task_complete';

/** The keys of an agent entry, with their readers. */
export const AGENT_FIELDS = {
  model: field(referenceReader('model'), { required: true, missingHint: 'name one of the keys of "models"' }),
  system: field(readString),
  tools: field(readAgentTools),
  workspace: field(readPath),
  limits: field(readLimits),
  permissions: field(readPermissions),
  compaction: field(readCompaction),
  description: field(readString),
  delegates: field(readDelegates),
  maxDepth: field(readPositiveInteger),
  supervision: field(readSupervision),
  placement: field(readPlacement),
  concurrency: field(readPositiveInteger),
  completion: field(readCompletion),
  stepDelayMs: field(readNonNegativeInteger),
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
export function readAgent(ctx: ReadContext, entry: MapEntry): AgentConfig | undefined {
  ctx.define('agent', entry.key);
  const nameOk = AGENT_NAME.test(entry.key);
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
  if (values.concurrency !== undefined) agent.concurrency = values.concurrency;
  if (values.completion !== undefined) agent.completion = values.completion;
  // A task ends only when the agent says so: it needs the tool to say it with.
  if (values.completion === 'task' && !agent.tools.includes(TASK_COMPLETE_TOOL)) agent.tools = [...agent.tools, TASK_COMPLETE_TOOL];
  if (values.stepDelayMs !== undefined) agent.stepDelayMs = values.stepDelayMs;
  applyRunSettings(agent, values);
  return agent;
}
