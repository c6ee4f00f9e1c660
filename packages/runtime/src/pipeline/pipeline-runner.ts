import { childPath, toErrorInfo, TroupeError, type AgentPath, type ErrorInfo } from '@troupe/core';
import type { MapStepConfig, PipelineConfig, PipelineStepConfig } from '../config/graph-config.js';
import type { PipelineContext } from './pipeline-context.js';
import { runStepActor } from './step-actor.js';
import { PipelineErrorCode } from '../runtime-error-codes.js';
import { render, resolve, type TemplateScope } from './template.js';

/** A step's output, or the error it failed with (kept when the step says `continueOnError`). */
export interface StepOutcome {
  output: unknown;
  error?: ErrorInfo;
}

/** How a pipeline ended: the last step's output, every step's outcome, and the failure if any. */
export interface PipelineResult {
  output: unknown;
  steps: Record<string, StepOutcome>;
  error?: ErrorInfo;
}

const DEFAULT_CONCURRENCY = 4;

/**
 * Runs a pipeline's steps in order: an agent step runs one actor on its rendered input; a
 * `parallel` step runs its agent steps at once and collects an object keyed by their ids; a
 * `map` step runs one actor per item of a list with bounded concurrency. Step actors are spawned
 * through the transport at `<pipeline>/<step>` (`…/<n>` per map item); a step asked for JSON that
 * replies with something else is asked again in the same conversation. A failed
 * step fails the pipeline with its id unless it says `continueOnError`. Aborting the signal
 * aborts every step actor still running.
 *
 * Step actors are recorded in the run store, so running the pipeline again on the same input in
 * the same run (after the runtime restored its live actors from their snapshots) resumes it:
 * ended steps give their recorded output, restored actors are waited for, the rest start.
 */
export async function runPipeline(pipeline: PipelineConfig, input: unknown, context: PipelineContext): Promise<PipelineResult> {
  const scope: TemplateScope = { input, steps: {} };
  const steps: Record<string, StepOutcome> = {};
  let output: unknown = null;
  for (const step of pipeline.steps) {
    let outcome: StepOutcome;
    try {
      outcome = { output: await runStep(step, scope, context) };
    } catch (error) {
      const info = toErrorInfo(error, PipelineErrorCode.StepFailed);
      outcome = { output: null, error: info };
      if (step.continueOnError !== true || context.signal.aborted) {
        steps[step.id] = outcome;
        return {
          output: null,
          steps,
          error: { code: PipelineErrorCode.StepFailed, message: `step ${step.id} failed: ${info.message}`, data: { step: step.id, cause: info } },
        };
      }
    }
    steps[step.id] = outcome;
    scope.steps[step.id] = { output: outcome.output };
    output = outcome.output;
  }
  return { output, steps };
}

/** Runs `step` in a trace scope of its own, when the run is traced. */
async function runStep(step: PipelineStepConfig, scope: TemplateScope, context: PipelineContext): Promise<unknown> {
  const at = childPath(context.root, step.id);
  const trace = context.instrumentation?.step({ runId: context.runId, path: at, id: step.id, kind: step.kind, parent: context.trace });
  if (trace === undefined) return runStepIn(step, at, scope, context);
  const inner: PipelineContext = { ...context };
  if (trace.carrier === undefined) delete inner.trace;
  else inner.trace = trace.carrier;
  try {
    const output = await runStepIn(step, at, scope, inner);
    trace.end();
    return output;
  } catch (error) {
    trace.end(toErrorInfo(error, PipelineErrorCode.StepFailed));
    throw error;
  }
}

async function runStepIn(step: PipelineStepConfig, at: AgentPath, scope: TemplateScope, context: PipelineContext): Promise<unknown> {
  switch (step.kind) {
    case 'agent':
      return runStepActor(step, render(step.input, scope), at, context);
    case 'parallel': {
      const outputs = await Promise.all(step.steps.map((sub) => runStepActor(sub, render(sub.input, scope), childPath(at, sub.id), context)));
      return Object.fromEntries(step.steps.map((sub, i) => [sub.id, outputs[i]]));
    }
    case 'map':
      return mapOver(step, scope, at, context);
  }
}

async function mapOver(step: MapStepConfig, scope: TemplateScope, at: AgentPath, context: PipelineContext): Promise<unknown[]> {
  const items = resolve(step.over, scope);
  const list = typeof items === 'string' ? parseList(items) : items;
  if (!Array.isArray(list)) {
    throw new TroupeError(PipelineErrorCode.NotAList, `map over ${step.over} needs a JSON list, got ${JSON.stringify(list)?.slice(0, 120) ?? 'nothing'}`);
  }
  const outputs: unknown[] = new Array<unknown>(list.length);
  let next = 0;
  const worker = async (): Promise<void> => {
    while (next < list.length && !context.signal.aborted) {
      const index = next++;
      const itemScope: TemplateScope = { ...scope, item: list[index], index };
      outputs[index] = await runStepActor(step, render(step.input, itemScope), childPath(at, String(index + 1)), context);
    }
  };
  await Promise.all(Array.from({ length: Math.min(list.length, Math.max(1, step.concurrency ?? DEFAULT_CONCURRENCY)) }, worker));
  return outputs;
}

function parseList(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}
