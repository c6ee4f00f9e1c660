import type { AgentStepConfig, MapStepConfig, ParallelStepConfig, PipelineConfig, PipelineStepConfig, StepOutputConfig } from './graph-config.js';
import { GRAPH_NAME, graphNameSchema } from './graph-names.js';
import { field, objectReader } from './object-reader.js';
import type { ReadContext, Slot } from './read-context.js';
import { definition, entryReader, reader, type EntryReader, type MapEntry, type Reader } from './reader.js';
import {
  listReader,
  readBoolean,
  readEntries,
  readJsonSchema,
  readNonNegativeInteger,
  readPositiveInteger,
  readString,
  referenceReader,
} from './yaml-readers.js';

const STEP_REFERENCE = /\{\{\s*steps\.([^.}\s]+)/g;

const readAgentName = referenceReader('agent');

/** A step id: checked against {@link GRAPH_NAME} once the step is read (a `${NAME}` is substituted first). */
const readStepId: Reader<string> = reader((scope) => scope.orVariable(graphNameSchema(scope)), readString);

/** The keys of a step's `output` (`StepOutputConfig`). */
export const OUTPUT_FIELDS = {
  schema: field(readJsonSchema, { required: true, description: "The JSON Schema the step's answer must match." }),
  retries: field(readNonNegativeInteger, { description: 'How many times an invalid answer is asked for again.' }),
};

const readOutputFields = objectReader(OUTPUT_FIELDS);
const readOutput: Reader<StepOutputConfig> = reader(definition('output', readOutputFields.schema), (ctx, slot) => {
  const values = readOutputFields(ctx, slot);
  if (values?.schema === undefined) return undefined;
  return values.retries === undefined ? { schema: values.schema } : { schema: values.schema, retries: values.retries };
});

const common = {
  id: field(readStepId, { required: true, description: 'Unique in its pipeline; later steps read its output as {{steps.<id>.output}}.' }),
  continueOnError: field(readBoolean, { description: 'Record the failure (output null) and go on instead of failing the pipeline.' }),
};

/** The keys of an agent step. */
export const AGENT_STEP_FIELDS = {
  ...common,
  agent: field(readAgentName, { required: true }),
  input: field(readString, { description: 'A template over {{input}} and {{steps.<id>.output}}; default {{input}}.' }),
  output: field(readOutput),
};

/** The keys of a map step. */
export const MAP_STEP_FIELDS = {
  ...common,
  map: field(readString, { required: true, description: 'A template resolving to a JSON list, e.g. {{steps.outline.output}}.' }),
  agent: field(readAgentName, { required: true }),
  input: field(readString, { description: 'May use {{item}} and {{index}}; default {{item}}.' }),
  concurrency: field(readPositiveInteger, { description: 'At most this many items at once. Default 4.' }),
  output: field(readOutput),
};

const readAgentFields = objectReader(AGENT_STEP_FIELDS);
const readMapFields = objectReader(MAP_STEP_FIELDS);

function base<T extends PipelineStepConfig>(step: T, continueOnError: boolean | undefined): T {
  if (continueOnError !== undefined) step.continueOnError = continueOnError;
  return step;
}

/** An agent step: `{ id, agent, input?, output?, continueOnError? }`; the input defaults to `{{input}}`. */
const readAgentStep: Reader<AgentStepConfig> = reader(definition('agentStep', readAgentFields.schema), (ctx, slot) => {
  const values = readAgentFields(ctx, slot);
  if (values?.id === undefined || values.agent === undefined) return undefined;
  const step = base<AgentStepConfig>({ kind: 'agent', id: values.id, agent: values.agent, input: values.input ?? '{{input}}' }, values.continueOnError);
  if (values.output !== undefined) step.output = values.output;
  return step;
});

/** The keys of a parallel step. */
export const PARALLEL_STEP_FIELDS = {
  ...common,
  parallel: field(listReader(readAgentStep, { nonEmpty: true }), {
    required: true,
    description: 'Agent steps run at once; the output is an object keyed by their ids.',
  }),
};

const readParallelFields = objectReader(PARALLEL_STEP_FIELDS);

/** One step: a `parallel` list, a `map` over a list, or an agent call. */
const readStep: Reader<PipelineStepConfig> = reader(
  // Each shape allows no key of another's (`parallel`, `map`), so exactly one branch matches a step.
  definition('step', (scope) => ({ anyOf: [readAgentStep.schema(scope), readParallelFields.schema(scope), readMapFields.schema(scope)] })),
  (ctx, slot) => {
    const keys = new Set((readEntries(ctx, slot) ?? []).map((entry) => entry.key));
    if (keys.has('parallel')) {
      const values = readParallelFields(ctx, slot);
      if (values?.id === undefined || values.parallel === undefined) return undefined;
      return base<ParallelStepConfig>({ kind: 'parallel', id: values.id, steps: values.parallel }, values.continueOnError);
    }
    if (keys.has('map')) {
      const values = readMapFields(ctx, slot);
      if (values?.id === undefined || values.map === undefined || values.agent === undefined) return undefined;
      const step = base<MapStepConfig>(
        { kind: 'map', id: values.id, over: values.map, agent: values.agent, input: values.input ?? '{{item}}' },
        values.continueOnError,
      );
      if (values.concurrency !== undefined) step.concurrency = values.concurrency;
      if (values.output !== undefined) step.output = values.output;
      return step;
    }
    return readAgentStep(ctx, slot);
  },
);

/** Checks one step's id (valid, unique) and that its templates only read earlier steps. */
function checkStep(ctx: ReadContext, slot: Slot, step: PipelineStepConfig, earlier: Set<string>, listPath: string): void {
  const ids = step.kind === 'parallel' ? [step.id, ...step.steps.map((sub) => sub.id)] : [step.id];
  for (const id of ids) if (!GRAPH_NAME.test(id)) ctx.report(slot, `invalid step id "${id}" in ${slot.path}`, 'use letters, digits, "_", "-" and "."');
  if (earlier.has(step.id)) ctx.report(slot, `duplicate step id "${step.id}" in ${listPath}`);
  const templates = step.kind === 'parallel' ? step.steps.map((sub) => sub.input) : step.kind === 'map' ? [step.over, step.input] : [step.input];
  for (const template of templates) {
    for (const match of template.matchAll(STEP_REFERENCE)) {
      const name = match[1] ?? '';
      if (earlier.has(name)) continue;
      const hint = earlier.size === 0 ? 'no step comes before it' : `earlier steps: ${[...earlier].join(', ')}`;
      ctx.report(slot, `step "${step.id}" reads steps.${name}, which is not an earlier step`, hint);
    }
  }
}

const stepList = listReader(readStep, { nonEmpty: true });

/** The steps, in order, each checked against the ones before it. */
const readSteps: Reader<PipelineStepConfig[]> = reader(stepList.schema, (ctx, slot) => {
  const earlier = new Set<string>();
  return listReader<PipelineStepConfig>(
    reader(readStep.schema, (c, s) => {
      const step = readStep(c, s);
      if (step === undefined) return undefined;
      checkStep(c, s, step, earlier, slot.path);
      earlier.add(step.id);
      return step;
    }),
    { nonEmpty: true },
  )(ctx, slot);
});

const readPipelineFields = objectReader({
  description: field(readString, { description: 'What the pipeline does.' }),
  steps: field(readSteps, { required: true, description: 'Run in order; a step reads the outputs of earlier ones.' }),
});

/** One entry of `pipelines`: `description` and `steps`. Its name shares the namespace of agents. */
export const readPipeline: EntryReader<PipelineConfig> = entryReader(definition('pipeline', readPipelineFields.schema), readPipelineEntry, {
  keys: graphNameSchema,
});

function readPipelineEntry(ctx: ReadContext, entry: MapEntry): PipelineConfig | undefined {
  ctx.define('pipeline', entry.key);
  if (!GRAPH_NAME.test(entry.key)) ctx.report(entry.slot, `invalid pipeline name "${entry.key}"`, 'use letters, digits, "_", "-" and "."');
  const values = readPipelineFields(ctx, entry.slot);
  if (values?.steps === undefined) return undefined;
  const pipeline: PipelineConfig = { name: entry.key, steps: values.steps };
  if (values.description !== undefined) pipeline.description = values.description;
  return pipeline;
}
