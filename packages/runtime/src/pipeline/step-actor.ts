import {
  addUsage,
  DEFAULT_OUTPUT_RETRIES,
  emptyUsage,
  jsonInstruction,
  parseJsonOutput,
  retryInstruction,
  toErrorInfo,
  TroupeError,
  type AgentPath,
  type AgentResult,
  type SchemaValidator,
  type Usage,
} from '@troupe/core';
import type { StepOutputConfig } from '../config/graph-config.js';
import type { ChildOutcome, ChildRecord } from '../store/run-store.js';
import type { PipelineContext } from './pipeline-context.js';
import { PipelineErrorCode } from '../runtime-error-codes.js';

/** What one step actor runs: a graph agent, and the JSON Schema its reply must match, if any. */
export interface StepActorSpec {
  agent: string;
  output?: StepOutputConfig;
}

/** How a run of the actor begins: a new actor, another prompt to the one there, or nothing (it runs already). */
type Begin = { kind: 'spawn'; agent: string; input: string } | { kind: 'prompt'; input: string } | { kind: 'attach' };

/**
 * Runs the step actor at `path` on `input` and returns the step's output: its text, or the JSON
 * value it replied (asked again in the same conversation while the reply is not acceptable).
 * Throws a typed error when the step fails.
 *
 * Each step actor is recorded in the run store as a delegation of the pipeline's root
 * (`toolCallId` = its path, `task` = its rendered input) before it starts, and again with the
 * step's final outcome once it ends (for a JSON step, the accepted value as JSON text). So a
 * process resuming the run takes a recorded outcome without spawning anything, re-attaches to an
 * actor the runtime restored from its snapshot, and starts the others. A JSON step re-attached
 * after a resume counts its retries afresh.
 */
export async function runStepActor(step: StepActorSpec, input: string, path: AgentPath, context: PipelineContext): Promise<unknown> {
  const { store, runId, root } = context;
  const known = await store.child(runId, root, path);
  if (known?.outcome !== undefined) {
    const recorded = replay(step, known.outcome, context.validator);
    if (recorded !== undefined) return recorded.output;
  }
  const record: ChildRecord = { parent: root, toolCallId: path, path, agent: step.agent, task: input, depth: depthOf(path) };
  // Started but not ended: the actor may have been restored by the runtime that resumes the run.
  const attach = known !== undefined && known.outcome === undefined;
  if (!attach) await store.saveChild(runId, record);
  const spent = { usage: emptyUsage() };
  let ended: { output: unknown; outcome: ChildOutcome };
  try {
    ended = await converse(step, input, path, context, { attach, spent });
  } catch (error) {
    const failure: ChildOutcome = {
      stopReason: context.signal.aborted ? 'aborted' : 'error',
      text: '',
      error: toErrorInfo(error, PipelineErrorCode.StepFailed),
      usage: spent.usage,
    };
    await store.saveChild(runId, { ...record, outcome: failure });
    throw error;
  }
  await store.saveChild(runId, { ...record, outcome: ended.outcome });
  return ended.output;
}

/**
 * The output a recorded outcome stands for; throws the recorded failure. `undefined` when it
 * cannot stand for the step's output: a JSON step whose actor ended on an unacceptable reply
 * before it could be asked again (its outcome then comes from its snapshot).
 */
function replay(step: StepActorSpec, outcome: ChildOutcome, validator: SchemaValidator): { output: unknown } | undefined {
  if (outcome.stopReason === 'error' || outcome.stopReason === 'aborted') {
    throw new TroupeError(outcome.error?.code ?? outcome.stopReason, outcome.error?.message ?? `${step.agent} ended with ${outcome.stopReason}`);
  }
  if (step.output === undefined) return { output: outcome.text };
  const parsed = parseJsonOutput(outcome.text, step.output.schema, validator);
  return parsed.ok ? { output: parsed.value } : undefined;
}

/** Runs the actor to the step's output; while its JSON reply is not acceptable, asks it again. */
async function converse(
  step: StepActorSpec,
  input: string,
  path: AgentPath,
  context: PipelineContext,
  options: { attach: boolean; spent: { usage: Usage } },
): Promise<{ output: unknown; outcome: ChildOutcome }> {
  const { output } = step;
  const { spent } = options;
  const run = async (begin: Begin): Promise<AgentResult> => {
    const result = await runActor(path, begin, context);
    spent.usage = addUsage(spent.usage, result.usage);
    return checked(step.agent, path, result);
  };
  const ended = (result: AgentResult, value: unknown, text: string): { output: unknown; outcome: ChildOutcome } => ({
    output: value,
    outcome: { stopReason: result.stopReason, text, usage: spent.usage },
  });
  const prompt = output === undefined ? input : input + jsonInstruction(output.schema);
  // An actor that is not hosted (its process ended before it checkpointed) starts again.
  let result =
    (options.attach ? await run({ kind: 'attach' }).catch(unlessFailed) : undefined) ?? (await run({ kind: 'spawn', agent: step.agent, input: prompt }));
  if (output === undefined) return ended(result, result.text, result.text);
  const attempts = 1 + (output.retries ?? DEFAULT_OUTPUT_RETRIES);
  for (let attempt = 1; ; attempt++) {
    const parsed = parseJsonOutput(result.text, output.schema, context.validator);
    if (parsed.ok) return ended(result, parsed.value, JSON.stringify(parsed.value));
    if (attempt === attempts)
      throw new TroupeError(PipelineErrorCode.InvalidOutput, `${step.agent} gave no acceptable JSON after ${attempts} attempts: ${parsed.problem}`);
    result = await run({ kind: 'prompt', input: retryInstruction(parsed.problem).trim() });
  }
}

/** Lets a failure of the re-attached actor through; anything else means there is no actor to attach to. */
function unlessFailed(error: unknown): undefined {
  if (error instanceof StepActorFailed) throw error;
  return undefined;
}

/** The step actor's run ended in `error` or `aborted`. */
class StepActorFailed extends TroupeError {}

/** The result of a run that did not fail; throws for one that did. */
function checked(agent: string, path: AgentPath, result: AgentResult): AgentResult {
  if (result.stopReason !== 'error' && result.stopReason !== 'aborted') return result;
  const what = result.stopReason === 'aborted' ? 'was aborted' : `failed: ${result.error?.message ?? 'no reason given'}`;
  throw new StepActorFailed(result.error?.code ?? result.stopReason, `${agent} (${path}) ${what}`);
}

/** Begins a run of the actor at `path` and waits for its outcome; aborting the pipeline aborts it. */
async function runActor(path: AgentPath, begin: Begin, context: PipelineContext): Promise<AgentResult> {
  const { transport, runId, signal, sessionId } = context;
  if (signal.aborted) throw new StepActorFailed('aborted', 'the pipeline was aborted');
  if (begin.kind === 'spawn')
    await transport.spawn({
      runId,
      path,
      agent: begin.agent,
      input: begin.input,
      depth: depthOf(path),
      ...(sessionId === undefined ? {} : { sessionId }),
      ...(context.trace === undefined ? {} : { trace: context.trace }),
    });
  else if (begin.kind === 'prompt') await transport.control(runId, path, { type: 'prompt', input: begin.input });
  const abort = (): void => void transport.control(runId, path, { type: 'abort' }).catch(() => undefined);
  signal.addEventListener('abort', abort, { once: true });
  try {
    return await transport.result(runId, path);
  } finally {
    signal.removeEventListener('abort', abort);
  }
}

function depthOf(path: AgentPath): number {
  return path.split('/').length - 1;
}
