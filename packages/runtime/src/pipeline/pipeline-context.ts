import type { AgentPath, RunId, SchemaValidator } from '@troupe/core';
import type { RunStore } from '../store/run-store.js';
import type { Instrumentation } from '../system/instrumentation.js';
import type { TraceCarrier } from '../system/trace-carrier.js';
import type { Transport } from '../system/transport.js';

/** What a pipeline run needs. */
export interface PipelineContext {
  transport: Transport;
  /** Where each step actor is recorded as it starts and ends (see {@link runStepActor}). */
  store: RunStore;
  runId: RunId;
  /** The pipeline's root path (its name); step actors sit below it. */
  root: AgentPath;
  validator: SchemaValidator;
  signal: AbortSignal;
  /** The conversation the step actors' runs belong to (the run's). */
  sessionId?: string;
  /** Opens a trace scope per step. */
  instrumentation?: Instrumentation;
  /** The trace context the pipeline's steps start in (the run's; within a step, the step's). */
  trace?: TraceCarrier;
}
