import type { Limits, PermissionRules } from '@troupe/core';
import type { AgentConfig } from './graph-config.js';
import { field, objectReader } from './object-reader.js';
import type { ReadContext, Slot } from './read-context.js';
import { listReader, oneOfReader, readPositiveInteger, readPositiveNumber, readString, recordReader, type MapEntry, type Reader } from './yaml-readers.js';

/** Agent names become path segments (`lead/researcher#2`), so they are kept to this alphabet. */
const AGENT_NAME = /^[A-Za-z0-9_.-]+$/;

/** A name that must be defined elsewhere (a model, a tool), recorded for the reference check. */
function referenceReader(kind: 'model' | 'tool'): Reader<string> {
  return (ctx, slot) => {
    const name = readString(ctx, slot);
    if (name !== undefined) ctx.refer(kind, name, slot);
    return name;
  };
}

/** The tool list: known names, each at most once. */
const readToolNames: Reader<string[]> = (ctx, slot) => {
  const seen = new Set<string>();
  const readTool = referenceReader('tool');
  return listReader<string>((c, s) => {
    const name = readTool(c, s);
    if (name === undefined) return undefined;
    if (seen.has(name)) {
      c.report(s, `duplicate tool "${name}" in ${slot.path}`);
      return undefined;
    }
    seen.add(name);
    return name;
  })(ctx, slot);
};

const readLimits: Reader<Limits> = objectReader({
  maxTurns: field(readPositiveInteger),
  maxTokens: field(readPositiveInteger),
  maxWallTimeMs: field(readPositiveInteger),
  maxCost: field(readPositiveNumber),
});

const readVerdict = oneOfReader(['allow', 'ask', 'deny']);

const readPermissionFields = objectReader({
  mode: field(oneOfReader(['allow', 'ask', 'deny', 'smart']), { required: true }),
  tools: field(
    recordReader((ctx, entry) => {
      ctx.refer('tool', entry.key, keySlot(entry));
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

const readAgentFields = objectReader(
  {
    model: field(referenceReader('model'), { required: true, missingHint: 'name one of the keys of "models"' }),
    system: field(readString),
    tools: field(readToolNames),
    limits: field(readLimits),
    permissions: field(readPermissions),
  },
  {
    reserved: {
      delegates: 'delegation to other agents comes in a later version of troupe',
      placement: 'placement on remote workers comes in a later version of troupe',
    },
  },
);

function keySlot(entry: MapEntry): Slot {
  return entry.slot.key === undefined ? entry.slot : { path: entry.slot.path, node: entry.slot.key };
}

/**
 * One entry of `agents`: `model` (a key of `models`), `system`, `tools`, `limits` and
 * `permissions`. The key is the agent's name and must be a valid path segment.
 */
export function readAgent(ctx: ReadContext, entry: MapEntry): AgentConfig | undefined {
  ctx.define('agent', entry.key);
  const nameOk = AGENT_NAME.test(entry.key);
  if (!nameOk) ctx.report(keySlot(entry), `invalid agent name "${entry.key}"`, 'use letters, digits, "_", "-" and "."');
  const values = readAgentFields(ctx, entry.slot);
  if (!nameOk || values?.model === undefined) return undefined;
  const agent: AgentConfig = { name: entry.key, model: values.model, tools: values.tools ?? [] };
  if (values.system !== undefined) agent.systemPrompt = values.system;
  if (values.limits !== undefined) agent.limits = values.limits;
  if (values.permissions !== undefined) agent.permissions = values.permissions;
  return agent;
}
