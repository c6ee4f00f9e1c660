import type { AgentPath, ErrorInfo, RunId, RunStopReason, Usage } from '@troupe/core';
import type { TraceCarrier } from './trace-carrier.js';
import type { HostedActor } from './transport.js';

/** A run that starts (or is resumed) in this runtime. */
export interface TracedRun {
  runId: RunId;
  /** The agent or pipeline the run starts at. */
  entry: string;
  kind: 'agent' | 'pipeline';
  /** The conversation it belongs to. */
  sessionId?: string;
  /** Whether it was resumed from what a gone process recorded (`Runtime.resume`). */
  resumed: boolean;
  /** A resumed run's context from before (`RunRecord.trace`): the trace it goes on in. */
  parent?: TraceCarrier;
}

/** How a run ended, as its trace records it (a `RunResult` is one). */
export interface TracedRunEnd {
  status: 'done' | 'failed' | 'aborted';
  stopReason: RunStopReason;
  /** Summed over every actor of the run. */
  usage: Usage;
  error?: ErrorInfo;
}

/** What the instrumentation keeps open for a run: the context its entry starts in, and its end. */
export interface RunTrace {
  readonly carrier: TraceCarrier | undefined;
  end(result: TracedRunEnd): void;
  /**
   * The runtime closes before the run has ended: it waits for a person, or other processes go on
   * with it. A later `Runtime.resume` goes on in the same trace (`TracedRun.parent`).
   */
  leave(status: 'running' | 'waiting'): void;
}

/** A pipeline step that starts. */
export interface TracedStep {
  runId: RunId;
  /** The step's path (`<pipeline>/<step>`); its actors sit at or below it. */
  path: AgentPath;
  id: string;
  kind: 'agent' | 'parallel' | 'map';
  /** The context it starts in (the run's). */
  parent: TraceCarrier | undefined;
}

/** What the instrumentation keeps open for a pipeline step: the context its actors start in, and its end. */
export interface StepTrace {
  readonly carrier: TraceCarrier | undefined;
  end(error?: ErrorInfo): void;
}

/** An actor followed by the instrumentation while this process hosts it. */
export interface ActorTrace {
  /** It stops being hosted here (it ended, it was set aside or handed over, or the host closed). */
  end(): void;
}

/**
 * Watches what a runtime does, for tracing and metrics (`@troupe/otel` implements it over
 * OpenTelemetry). The runtime calls it where the shape of a run is known — a run starts, a
 * pipeline step starts, an actor is hosted — and carries the contexts it returns to wherever the
 * work goes: a spawned actor's request carries its parent's `trace`, across processes too.
 *
 * Contract: every method is called synchronously on the runtime's path and must not throw or
 * block; what it returns is ended exactly once.
 */
export interface Instrumentation {
  run(run: TracedRun): RunTrace;
  step(step: TracedStep): StepTrace;
  /** An actor starts being hosted in this process, fresh or restored, in the context of `actor.request.trace`. */
  actor(actor: HostedActor): ActorTrace;
  /** The context of the tool call `toolCallId` of the actor at `path`, while it runs (the parent of a child it delegates to). */
  carrierOf(runId: RunId, path: AgentPath, toolCallId: string): TraceCarrier | undefined;
}
