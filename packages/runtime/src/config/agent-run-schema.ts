/**
 * The keys of an agent entry that set how its runs behave besides limits and permissions: `retry`,
 * `toolExecution`, `steeringMode`, `followUpMode`, `outputSchema`, `outputRetries` and
 * `guardrails` (named ones of the guardrail registry, with their settings checked against what each
 * declares, or modules exporting guardrails).
 */
import { sharedSchemaValidator, type QueueMode, type ToolExecution } from '@troupe/core';
import { isMap, isScalar } from 'yaml';
import { didYouMean } from './did-you-mean.js';
import type { AgentConfig, GuardrailConfig, RetryConfig } from './graph-config.js';
import { annotated, field, objectReader, type FieldValues } from './object-reader.js';
import type { ReadContext, Slot } from './read-context.js';
import { definition, reader, type Reader } from './reader.js';
import type { JsonSchema, SchemaScope } from './schema-scope.js';
import { pathFromFile } from './tool-settings-schema.js';
import {
  listReader,
  oneOfReader,
  readEntries,
  readJson,
  readJsonSchema,
  readNonNegativeInteger,
  readPositiveInteger,
  readString,
  reportType,
} from './yaml-readers.js';

/** The keys of an agent's `retry` (`RetryConfig`). */
export const RETRY_FIELDS = { maxRetries: field(readNonNegativeInteger), baseDelayMs: field(readNonNegativeInteger), maxDelayMs: field(readPositiveInteger) };

const readRetry: Reader<RetryConfig> = objectReader(RETRY_FIELDS);

const readBatched = objectReader({
  mode: field(oneOfReader(['parallel', 'sequential', 'batched']), { required: true }),
  size: field(readPositiveInteger, { description: 'Calls at once in batched mode.' }),
});

const readMode = oneOfReader(['parallel', 'sequential']);

/** `parallel`, `sequential`, or `{ mode: batched, size: N }`. */
const readToolExecution: Reader<ToolExecution> = reader(
  (scope) => ({ anyOf: [readMode.schema(scope), readBatched.schema(scope)] }),
  (ctx, slot) => {
    const node = slot.node;
    if (node !== null && isScalar(node)) {
      const mode = readMode(ctx, slot);
      return mode === undefined ? undefined : { mode };
    }
    if (node === null || !isMap(node))
      return reportType(ctx, slot, 'parallel, sequential or a mapping', 'for example "toolExecution: { mode: batched, size: 3 }"');
    const values = readBatched(ctx, slot);
    if (values?.mode === undefined) return undefined;
    if (values.mode !== 'batched') return { mode: values.mode };
    if (values.size === undefined) {
      ctx.report(
        slot.key === undefined ? slot : { path: slot.path, node: slot.key },
        `${slot.path} in batched mode needs "size"`,
        'how many calls run at once',
      );
      return undefined;
    }
    return { mode: 'batched', size: values.size };
  },
);

const readQueueMode = oneOfReader<QueueMode>(['one-at-a-time', 'all']);

/** The settings of a named guardrail, checked against its schema and built once to catch what the schema cannot (a bad regex). */
function readGuardrailSettings(ctx: ReadContext, slot: Slot, name: string): GuardrailConfig | undefined {
  const registry = ctx.state.guardrails;
  const factory = registry?.factoryOf(name);
  if (registry === undefined || factory === undefined) {
    const known = registry?.names() ?? [];
    const at: Slot = slot.key === undefined ? slot : { path: slot.path, node: slot.key };
    ctx.report(at, `unknown guardrail "${name}" in ${slot.path}`, didYouMean(name, known) ?? `known guardrails: ${known.join(', ')}, or { module: ./path.ts }`);
    return undefined;
  }
  const settings = slot.node === null ? undefined : readJson(ctx, slot);
  const checked = sharedSchemaValidator().compile(factory.settings)(settings);
  if (!checked.ok) {
    ctx.report(slot, `${slot.path}: the settings of ${name} are not valid: ${checked.problems.join('; ')}`, `${name} ${factory.description}`);
    return undefined;
  }
  try {
    factory.create(settings);
  } catch (error) {
    ctx.report(slot, `${slot.path}: ${error instanceof Error ? error.message : String(error)}`);
    return undefined;
  }
  return settings === undefined ? { name } : { name, settings };
}

const GUARDRAIL_MODULE: JsonSchema = {
  type: 'object',
  properties: { module: { type: 'string', description: 'A TypeScript or JavaScript module exporting guardrails ({ name, check }), relative to this file.' } },
  required: ['module'],
  additionalProperties: false,
};

/**
 * The schema of one item of `guardrails`: `{ <name>: <settings> }` for each guardrail of the
 * scope's registry (its settings schema is the registry's), or a module. A bare name (no
 * settings) is left out: every built-in guardrail needs settings, and JSON Schema cannot say
 * which others accept none.
 */
function guardrailSchema(scope: SchemaScope): JsonSchema {
  const registry = scope.guardrails;
  const named = (registry?.names() ?? []).flatMap((name) => {
    const factory = registry?.factoryOf(name);
    if (factory === undefined) return [];
    return [
      {
        type: 'object',
        properties: { [name]: annotated(factory.settings, { description: `${name} ${factory.description}.` }) },
        required: [name],
        additionalProperties: false,
      },
    ];
  });
  // Without a registry, any one-key mapping may name a guardrail.
  const others = registry === undefined ? [{ type: 'object', minProperties: 1, maxProperties: 1 }] : [];
  return { anyOf: [...named, ...others, GUARDRAIL_MODULE] };
}

/** One item of `guardrails`: `{ <name>: <settings> }`, a bare `<name>`, or `{ module: <path> }`. */
const readGuardrail: Reader<GuardrailConfig> = reader(definition('guardrail', guardrailSchema), (ctx, slot) => {
  if (slot.node !== null && isScalar(slot.node)) {
    const name = readString(ctx, slot);
    return name === undefined ? undefined : readGuardrailSettings(ctx, { path: slot.path, node: null, key: slot.node }, name);
  }
  const entries = readEntries(ctx, slot);
  if (entries === undefined) return undefined;
  const [entry, extra] = entries;
  if (entry === undefined || extra !== undefined) {
    ctx.report(slot, `${slot.path} must name one guardrail`, 'for example "- maxInputLength: 4000" or "- module: ./guards/pii.ts"');
    return undefined;
  }
  if (entry.key !== 'module') return readGuardrailSettings(ctx, entry.slot, entry.key);
  const shown = readString(ctx, entry.slot);
  if (shown === undefined) return undefined;
  const file = pathFromFile(ctx, shown);
  ctx.state.guardrailModules.push({ file, shown, slot: entry.slot, source: ctx.source });
  return { module: file };
});

/** The fields of an agent entry this file reads (spread into the agent's object reader). */
export const AGENT_RUN_FIELDS = {
  retry: field(readRetry, {
    description: 'How failed model calls are retried: exponential back-off with jitter. Default: 5 retries from 1 s, capped at 60 s.',
  }),
  toolExecution: field(readToolExecution, { description: 'How the calls of one turn run. Default: parallel.' }),
  steeringMode: field(readQueueMode, { default: 'one-at-a-time', description: 'How queued steering messages are delivered: one per turn, or all at once.' }),
  followUpMode: field(readQueueMode, { default: 'one-at-a-time', description: 'How queued follow-up messages are delivered: one per turn, or all at once.' }),
  outputSchema: field(readJsonSchema, {
    description: "A JSON Schema the final answer must match: the answer is asked for again while it does not, and the run's value is the parsed answer.",
  }),
  outputRetries: field(readNonNegativeInteger, { description: 'How many times an answer that does not match outputSchema is asked for again. Default 1.' }),
  guardrails: field(listReader(readGuardrail), {
    description: 'Checks on each prompt before the first model call, in order: built-in ones by name with their settings, or modules exporting guardrails.',
  }),
};

/** Copies the run settings read by {@link AGENT_RUN_FIELDS} onto `agent`. */
export function applyRunSettings(agent: AgentConfig, values: FieldValues<typeof AGENT_RUN_FIELDS>): void {
  if (values.retry !== undefined) agent.retry = values.retry;
  if (values.toolExecution !== undefined) agent.toolExecution = values.toolExecution;
  if (values.steeringMode !== undefined) agent.steeringMode = values.steeringMode;
  if (values.followUpMode !== undefined) agent.followUpMode = values.followUpMode;
  if (values.outputSchema !== undefined) agent.outputSchema = values.outputSchema;
  if (values.outputRetries !== undefined) agent.outputRetries = values.outputRetries;
  if (values.guardrails !== undefined && values.guardrails.length > 0) agent.guardrails = values.guardrails;
}
