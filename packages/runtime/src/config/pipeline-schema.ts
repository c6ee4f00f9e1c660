import type { AgentStepConfig, MapStepConfig, ParallelStepConfig, PipelineConfig, PipelineStepConfig, StepOutputConfig } from './graph-config.js';
import { field, objectReader } from './object-reader.js';
import type { ReadContext, Slot } from './read-context.js';
import { describeNode, listReader, readBoolean, readEntries, readJsonSchema, readNonNegativeInteger, readPositiveInteger, readString, type MapEntry, type Reader } from './yaml-readers.js';

/** Step ids become path segments of the step actors (`brief/outline`). */
const STEP_ID = /^[A-Za-z0-9_.-]+$/;
const STEP_REFERENCE = /\{\{\s*steps\.([^.}\s]+)/g;

const readAgentName: Reader<string> = (ctx, slot) => {
  const name = readString(ctx, slot);
  if (name !== undefined) ctx.refer('agent', name, slot);
  return name;
};

const readOutputFields = objectReader({ schema: field(readJsonSchema, { required: true }), retries: field(readNonNegativeInteger) });
const readOutput: Reader<StepOutputConfig> = (ctx, slot) => {
  const values = readOutputFields(ctx, slot);
  if (values?.schema === undefined) return undefined;
  return values.retries === undefined ? { schema: values.schema } : { schema: values.schema, retries: values.retries };
};

const common = { id: field(readString, { required: true }), continueOnError: field(readBoolean) };
const readAgentFields = objectReader({ ...common, agent: field(readAgentName, { required: true }), input: field(readString), output: field(readOutput) });
const readMapFields = objectReader({
  ...common, map: field(readString, { required: true }), agent: field(readAgentName, { required: true }), input: field(readString),
  concurrency: field(readPositiveInteger), output: field(readOutput),
});
const readParallelFields = objectReader({ ...common, parallel: field(listReader(readAgentStep, { nonEmpty: true }), { required: true }) });

function base<T extends PipelineStepConfig>(step: T, continueOnError: boolean | undefined): T {
  if (continueOnError !== undefined) step.continueOnError = continueOnError;
  return step;
}

/** An agent step: `{ id, agent, input?, output?, continueOnError? }`; the input defaults to `{{input}}`. */
function readAgentStep(ctx: ReadContext, slot: Slot): AgentStepConfig | undefined {
  const values = readAgentFields(ctx, slot);
  if (values?.id === undefined || values.agent === undefined) return undefined;
  const step = base<AgentStepConfig>({ kind: 'agent', id: values.id, agent: values.agent, input: values.input ?? '{{input}}' }, values.continueOnError);
  if (values.output !== undefined) step.output = values.output;
  return step;
}

/** One step: a `parallel` list, a `map` over a list, or an agent call. */
const readStep: Reader<PipelineStepConfig> = (ctx, slot) => {
  const keys = new Set((readEntries(ctx, slot) ?? []).map((entry) => entry.key));
  if (keys.has('parallel')) {
    const values = readParallelFields(ctx, slot);
    if (values?.id === undefined || values.parallel === undefined) return undefined;
    return base<ParallelStepConfig>({ kind: 'parallel', id: values.id, steps: values.parallel }, values.continueOnError);
  }
  if (keys.has('map')) {
    const values = readMapFields(ctx, slot);
    if (values?.id === undefined || values.map === undefined || values.agent === undefined) return undefined;
    const step = base<MapStepConfig>({ kind: 'map', id: values.id, over: values.map, agent: values.agent, input: values.input ?? '{{item}}' }, values.continueOnError);
    if (values.concurrency !== undefined) step.concurrency = values.concurrency;
    if (values.output !== undefined) step.output = values.output;
    return step;
  }
  return readAgentStep(ctx, slot);
};

/** Checks one step's id (valid, unique) and that its templates only read earlier steps. */
function checkStep(ctx: ReadContext, slot: Slot, step: PipelineStepConfig, earlier: Set<string>, listPath: string): void {
  const ids = step.kind === 'parallel' ? [step.id, ...step.steps.map((sub) => sub.id)] : [step.id];
  for (const id of ids) if (!STEP_ID.test(id)) ctx.report(slot, `invalid step id "${id}" in ${slot.path}`, 'use letters, digits, "_", "-" and "."');
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

/** The steps, in order, each checked against the ones before it. */
const readSteps: Reader<PipelineStepConfig[]> = (ctx, slot) => {
  const earlier = new Set<string>();
  return listReader<PipelineStepConfig>(
    (c, s) => {
      const step = readStep(c, s);
      if (step === undefined) return undefined;
      checkStep(c, s, step, earlier, slot.path);
      earlier.add(step.id);
      return step;
    },
    { nonEmpty: true },
  )(ctx, slot);
};

const readPipelineFields = objectReader({ description: field(readString), steps: field(readSteps, { required: true }) });

/** One entry of `pipelines`: `description` and `steps`. Its name shares the namespace of agents. */
export function readPipeline(ctx: ReadContext, entry: MapEntry): PipelineConfig | undefined {
  ctx.define('pipeline', entry.key);
  if (!STEP_ID.test(entry.key)) ctx.report(entry.slot, `invalid pipeline name "${entry.key}"`, 'use letters, digits, "_", "-" and "."');
  const values = readPipelineFields(ctx, entry.slot);
  if (values?.steps === undefined) return undefined;
  const pipeline: PipelineConfig = { name: entry.key, steps: values.steps };
  if (values.description !== undefined) pipeline.description = values.description;
  return pipeline;
}
