import { toErrorInfo, type AgentPath, type AgentResult, type Clock, type RunId } from '@troupe/core';
import type { PipelineResult } from '../pipeline/pipeline-runner.js';
import type { RunRecord, RunStore } from '../store/run-store.js';
import type { RunTrace } from './instrumentation.js';
import { tellWhenSettled, type OutcomeWaiter } from './outcome.js';
import type { ProgressWrites } from './progress-writes.js';
import { finalStatusOf, type RunHandle, type RunResult } from './run-handle.js';
import type { Transport } from './transport.js';

/** What {@link RunEnding} works with: the runtime's parts, and its books of open runs (which it keeps up as runs end). */
export interface RunEndingParts {
  store: RunStore;
  transport: Transport;
  clock: Clock;
  progress: ProgressWrites;
  /** The traces of the runs that have not ended, by their handles. */
  traces: Map<RunHandle, RunTrace>;
  /** The runs whose events are still to be flushed. */
  runs: Set<RunId>;
}

/**
 * Ends a runtime's runs: waits for a run's entry to end, turns its outcome (or a pipeline's) into
 * the run's result, writes the run's final record, flushes its events, ends its trace, and lets
 * the transport let go of it. The result goes to the run's handle (`RunHandle.finish`).
 */
export class RunEnding {
  readonly #parts: RunEndingParts;

  constructor(parts: RunEndingParts) {
    this.#parts = parts;
  }

  /**
   * Ends `handle`'s run once its entry at `path` ends. With a waiter, not a chain of promises: a
   * run waiting for a user (or hibernated) for days keeps the waiter alone.
   */
  awaitEntry(handle: RunHandle, path: AgentPath): void {
    const { transport } = this.#parts;
    const waiter = new EntryWaiter(this, handle);
    if (transport.whenEnded === undefined) tellWhenSettled(transport.result(handle.id, path), waiter);
    else transport.whenEnded(handle.id, path, waiter);
  }

  /** Ends `handle`'s run with its entry's result. */
  entryEnded(handle: RunHandle, agent: AgentResult): void {
    const status = finalStatusOf(agent.stopReason);
    const result: Omit<RunResult, 'runId' | 'usage'> = { status, stopReason: agent.stopReason, text: agent.text, agent };
    if (agent.error !== undefined) result.error = agent.error;
    handle.finish(this.#record(handle, result));
  }

  /** Ends `handle`'s run as failed: it could not start, or its entry's outcome could not be had. */
  failed(handle: RunHandle, error: unknown): void {
    handle.finish(this.#record(handle, failedRun(error)));
  }

  /** Ends `handle`'s pipeline run once `ended` settles (aborted when `signal` is). */
  pipelineEnded(handle: RunHandle, ended: Promise<PipelineResult>, signal: AbortSignal): void {
    handle.finish(this.#pipelineResult(handle, ended, signal));
  }

  async #pipelineResult(handle: RunHandle, ended: Promise<PipelineResult>, signal: AbortSignal): Promise<RunResult> {
    let outcome: PipelineResult;
    try {
      outcome = await ended;
    } catch (error) {
      return this.#record(handle, failedRun(error));
    }
    const failed = outcome.error !== undefined;
    const status = failed ? (signal.aborted ? 'aborted' : 'failed') : 'done';
    const result: Omit<RunResult, 'runId' | 'usage'> = {
      status,
      stopReason: failed ? (signal.aborted ? 'aborted' : 'error') : 'stop',
      text: typeof outcome.output === 'string' ? outcome.output : (JSON.stringify(outcome.output) ?? ''),
      output: outcome.output,
      steps: outcome.steps,
    };
    if (outcome.error !== undefined) result.error = outcome.error;
    return this.#record(handle, result);
  }

  /** Ends the handle, writes the run's final record, flushes its events, and ends its trace. */
  async #record(handle: RunHandle, result: Omit<RunResult, 'runId' | 'usage'>): Promise<RunResult> {
    const { store, transport, clock, progress, traces, runs } = this.#parts;
    handle.end();
    const patch: Partial<RunRecord> = {
      status: result.status,
      endedAt: clock.now(),
      stopReason: result.stopReason,
      usage: handle.usage,
      turns: handle.turns,
    };
    if (result.error !== undefined) patch.error = result.error;
    const ended = { ...result, runId: handle.id, usage: handle.usage };
    // Ended once: a run its runtime left on close has had its trace ended then.
    traces.get(handle)?.end(ended);
    traces.delete(handle);
    // The final record has the run's usage and turns: progress still waiting is dropped, and one in flight lands before it, never after.
    await progress.end(handle.id);
    await store.updateRun(handle.id, patch);
    await store.flush(handle.id);
    // The run is over: the transport need keep nothing of it here (the store has it all).
    await transport.endRun?.(handle.id);
    runs.delete(handle.id);
    return ended;
  }
}

/** How a run ends that could not start, or whose entry's (or pipeline's) outcome could not be had. */
function failedRun(error: unknown): Omit<RunResult, 'runId' | 'usage'> {
  return { status: 'failed', stopReason: 'error', text: '', error: toErrorInfo(error) };
}

/** What a run waits for its entry with: its ending and its handle, and nothing more. */
class EntryWaiter implements OutcomeWaiter {
  readonly #ending: RunEnding;
  readonly #handle: RunHandle;

  constructor(ending: RunEnding, handle: RunHandle) {
    this.#ending = ending;
    this.#handle = handle;
  }

  resolve(agent: AgentResult): void {
    this.#ending.entryEnded(this.#handle, agent);
  }

  reject(error: unknown): void {
    this.#ending.failed(this.#handle, error);
  }
}
