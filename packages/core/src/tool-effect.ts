import type { AgentHooks } from './agent-hooks.js';
import type { AgentPort } from './agent-port.js';
import type { ToolExecution } from './agent-options.js';
import type { AgentPath, RunId } from './ids.js';
import {
  cancelText,
  errorResult,
  INTERRUPTED_BY_RESTORE,
  permissionDenied,
  permissionDeniedPermanently,
  toolExecutionError,
  type CancelReason,
} from './interrupts.js';
import type { AgentMachineEvent, BatchOutcome, EffectCommand, SuspendedCall } from './machine-types.js';
import type { ToolCall, ToolResultMessage } from './messages.js';
import { LazyAbort } from './lazy-abort.js';
import { evaluatePermission, type PermissionPolicy } from './permissions.js';
import { isRepeatable, type Tool, type ToolContext, type ToolResult } from './tool.js';
import { invalidArguments, unknownTool } from './call-problems.js';
import type { SchemaValidator } from './schema-validator.js';
import type { ToolSet } from './tool-set.js';
import { batchFailed, toolEnd, toolStart, toolUpdate } from './tool-events.js';

/** What the tool effect needs. */
export interface ToolEffectDeps {
  /** The tools, read once per batch. */
  tools: ToolSet;
  validator: SchemaValidator;
  permissions: PermissionPolicy;
  execution: ToolExecution;
  hooks: AgentHooks;
  /** Resolves once the agent's state is stored (see `AgentOptions.checkpointed`); a batch with a call not safe to repeat waits for it. */
  checkpointed: (() => Promise<void>) | undefined;
  /** The agent: its path, run, time, events and statechart. */
  port: AgentPort;
}

interface Batch {
  request: number;
  /** The tools as they were when the batch started. */
  tools: ReadonlyMap<string, Tool>;
  /**
   * Each call's abort, created on first use of its signal or `onAbort` (most tools use neither,
   * and a signal costs µs). One per call, not per batch: a signal shared by many parallel calls
   * would collect more abort listeners than Node allows without a warning.
   */
  aborts: Map<string, LazyAbort> | undefined;
  cancelled: boolean;
  /** The calls this batch must settle. */
  calls: ToolCall[];
  /** Calls started and not yet finished. */
  running: Map<string, ToolCall>;
  outcome: BatchOutcome;
  /** A steering message arrived: stop after the next call finishes. */
  steered: boolean;
}

type ToolsCommand = Extract<EffectCommand, { type: 'cmd.tools' }>;

/**
 * The long-lived effect that carries out `cmd.tools`: validates each call's arguments, applies the
 * permission policy, runs the allowed calls (parallel, sequential or batched) and reports the
 * settled batch to the machine in one `TOOLS.DONE`, emitting `tool_start`/`tool_update`/`tool_end`
 * as calls go. If any call needs the user's approval it reports `TOOLS.ASK` before running
 * anything, so `waiting_user` never has tools in flight. Once steered, the first call to finish
 * ends the batch: the others are cancelled with "tool call cancelled: user requested steering interrupt".
 *
 * Calls not safe to run twice (`isRepeatable`) start only once the agent's state is stored, when
 * its host says how (`checkpointed`); one that finishes while its batch goes on is kept in the
 * stored state at once (`TOOLS.RESULT`, then `checkpointed` again). In a batch resumed from a
 * snapshot they are not run again: those without a result are settled with
 * `INTERRUPTED_BY_RESTORE`, since they may have run before the snapshot's process stopped.
 */
export class ToolEffect {
  readonly #deps: ToolEffectDeps;
  #current: Batch | undefined;

  constructor(deps: ToolEffectDeps) {
    this.#deps = deps;
  }

  run(command: ToolsCommand): void {
    const batch: Batch = {
      request: command.request,
      tools: this.#deps.tools.current().byName,
      aborts: undefined,
      cancelled: false,
      calls: unsettled(command.calls, command.skip),
      running: new Map(),
      outcome: { results: [], suspended: [] },
      steered: command.steered,
    };
    this.#current = batch;
    const runnable = this.#vet(batch, command);
    if (runnable === undefined) return;
    const checkpointed = this.#deps.checkpointed;
    if (checkpointed === undefined || runnable.every((call) => isRepeatable(batch.tools.get(call.name) as Tool))) {
      this.#start(batch, runnable);
      return;
    }
    checkpointed()
      .then(() => this.#isCurrent(batch) && this.#start(batch, runnable))
      .catch((error: unknown) => this.#deps.port.emit(batchFailed(error)));
  }

  #start(batch: Batch, calls: ToolCall[]): void {
    const running = this.#execute(batch, calls);
    // Calls that finished synchronously settle the batch right away: no promise hops per turn.
    if (running === undefined) this.#settle(batch);
    else running.then(() => this.#settle(batch)).catch((error: unknown) => this.#deps.port.emit(batchFailed(error)));
  }

  /** A steering message arrived for `request`: the batch ends when its next call finishes. */
  steer(request: number): void {
    if (this.#current?.request === request) this.#current.steered = true;
  }

  /** Results of the current batch that finished but were not reported yet (for an abort). */
  settled(): ToolResultMessage[] {
    return this.#current?.outcome.results ?? [];
  }

  /** Aborts every running call of `request`; each gets a `tool_end` with the cancellation text. */
  cancel(request: number, reason: CancelReason): void {
    const batch = this.#current;
    if (batch === undefined || batch.request !== request) return;
    this.#current = undefined;
    this.#stop(batch, cancelText(reason));
  }

  #isCurrent(batch: Batch): boolean {
    return this.#current === batch;
  }

  /** Aborts what still runs and gives every unsettled call the error result `text`. */
  #stop(batch: Batch, text: string): void {
    batch.cancelled = true;
    for (const abort of batch.aborts?.values() ?? []) abort.abort();
    const now = this.#deps.port.now();
    const settled = new Set(batch.outcome.results.map((r) => r.toolCallId));
    for (const call of batch.calls) {
      if (settled.has(call.id) || batch.outcome.suspended.some((s) => s.callId === call.id)) continue;
      const result = errorResult(call, text, now);
      batch.outcome.results.push(result);
      if (batch.running.has(call.id)) this.#deps.port.emit(toolEnd(call, result));
    }
    batch.running.clear();
  }

  #settle(batch: Batch): void {
    if (!this.#isCurrent(batch)) return;
    this.#current = undefined;
    const { results, suspended, complete } = batch.outcome;
    const done: AgentMachineEvent = { type: 'TOOLS.DONE', request: batch.request, results, suspended, at: this.#deps.port.now() };
    if (complete !== undefined) done.complete = complete;
    this.#deps.port.send(done);
  }

  /** Settles what needs no execution (or, resumed, must not run again); returns the calls to run, or undefined when asking the user. */
  #vet(batch: Batch, command: ToolsCommand): ToolCall[] | undefined {
    const { validator, permissions } = this.#deps;
    const tools = batch.tools;
    const runnable: ToolCall[] = [];
    let ask: ToolCall | undefined;
    for (const call of batch.calls) {
      const tool = tools.get(call.name);
      const problem = tool === undefined ? unknownTool(call, tools) : invalidArguments(call, tool, validator);
      if (problem !== undefined) {
        this.#report(batch, call, { content: problem, isError: true });
        continue;
      }
      const decided = command.decisions[call.id];
      const verdict = decided ?? evaluatePermission(permissions, command.remembered, call, tool);
      // The user's "never" (now or earlier in the session) is permanent; the policy's deny is not.
      const permanent = decided === 'deny' || command.remembered[call.name] === 'deny';
      if (verdict === 'deny')
        this.#report(batch, call, { content: permanent ? permissionDeniedPermanently(call.name) : permissionDenied(call.name), isError: true });
      else if (verdict === 'ask') ask ??= call;
      // Allowed in a batch restored while it ran: it may have run, so only a call safe to repeat runs again.
      else if (command.resumed && !isRepeatable(tool as Tool)) this.#report(batch, call, { content: INTERRUPTED_BY_RESTORE, isError: true });
      else runnable.push(call);
    }
    if (ask !== undefined) {
      this.#current = undefined;
      this.#deps.port.send({ type: 'TOOLS.ASK', request: batch.request, callId: ask.id, results: batch.outcome.results, at: this.#deps.port.now() });
      return undefined;
    }
    return runnable;
  }

  /** Runs the calls per the execution mode; undefined when every call finished synchronously. */
  #execute(batch: Batch, calls: ToolCall[]): Promise<void> | undefined {
    const execution = this.#deps.execution;
    if (execution.mode === 'parallel') return this.#runAll(batch, calls);
    const size = execution.mode === 'sequential' ? 1 : Math.max(1, execution.size);
    const inGroups = async (): Promise<void> => {
      for (let i = 0; i < calls.length && this.#isCurrent(batch); i += size) await this.#runAll(batch, calls.slice(i, i + size));
    };
    return inGroups();
  }

  #runAll(batch: Batch, calls: ToolCall[]): Promise<void> | undefined {
    let pending: Promise<void>[] | undefined;
    for (const call of calls) {
      const running = this.#runOne(batch, call);
      if (running === undefined) continue;
      pending ??= [];
      pending.push(running);
    }
    return pending === undefined ? undefined : Promise.all(pending).then(() => undefined);
  }

  /** Starts one call; returns undefined when it finished synchronously. */
  #runOne(batch: Batch, call: ToolCall): Promise<void> | undefined {
    if (!this.#isCurrent(batch)) return undefined;
    const { hooks } = this.#deps;
    const tool = batch.tools.get(call.name) as Tool;
    if (hooks.beforeToolCall !== undefined || hooks.afterToolCall !== undefined) return this.#runHooked(batch, call, tool);
    this.#started(batch, call);
    let outcome: ToolResult | Promise<ToolResult>;
    try {
      outcome = tool.execute(call.arguments, this.#context(batch, call));
    } catch (error) {
      outcome = failure(call, error);
    }
    if (!isPromiseLike(outcome)) {
      this.#complete(batch, call, outcome);
      return undefined;
    }
    return Promise.resolve(outcome).then(
      (result) => this.#complete(batch, call, result),
      (error: unknown) => this.#complete(batch, call, failure(call, error)),
    );
  }

  /** The call is under way: `tool_start` is emitted and a cancellation gives it a `tool_end`. */
  #started(batch: Batch, call: ToolCall): void {
    batch.running.set(call.id, call);
    this.#emitStart(call);
  }

  /** Emits the call's `tool_start`. */
  #emitStart(call: ToolCall): void {
    this.#deps.port.emit(toolStart(call));
  }

  /** A call with tool hooks: `beforeToolCall` decides before `tool_start`, `afterToolCall` before `tool_end`. */
  async #runHooked(batch: Batch, call: ToolCall, tool: Tool): Promise<void> {
    const hooks = this.#deps.hooks;
    let result: ToolResult;
    let veto: { veto: string } | undefined;
    try {
      veto = hooks.beforeToolCall === undefined ? undefined : await hooks.beforeToolCall(call, { signal: abortOf(batch, call).signal });
    } catch (error) {
      veto = { veto: `beforeToolCall hook failed: ${error instanceof Error ? error.message : String(error)}` };
    }
    if (!this.#isCurrent(batch)) return;
    this.#started(batch, call);
    try {
      result = veto === undefined ? await tool.execute(call.arguments, this.#context(batch, call)) : { content: `blocked: ${veto.veto}`, isError: true };
    } catch (error) {
      result = failure(call, error);
    }
    if (!this.#isCurrent(batch)) return;
    let message = toResultMessage(call, result, this.#deps.port.now());
    if (hooks.afterToolCall !== undefined) {
      try {
        message = (await hooks.afterToolCall(call, message)) ?? message;
      } catch (error) {
        message = errorResult(call, `afterToolCall hook failed: ${error instanceof Error ? error.message : String(error)}`, message.timestamp);
      }
    }
    this.#complete(batch, call, result, message);
  }

  /** Records a finished call; once steered, the first call to finish ends the batch. */
  #complete(batch: Batch, call: ToolCall, result: ToolResult, message = toResultMessage(call, result, this.#deps.port.now())): void {
    if (!this.#isCurrent(batch)) return;
    batch.running.delete(call.id);
    this.#record(batch, call, message, result);
    const settled = batch.outcome.results.length + batch.outcome.suspended.length;
    if (batch.steered && settled < batch.calls.length) {
      this.#stop(batch, cancelText('steering'));
      this.#settle(batch);
    } else if (settled < batch.calls.length && result.control === undefined) this.#keep(batch, call, message);
  }

  /** Has the stored state hold a finished call not safe to repeat while its batch goes on: restored, it is not taken for interrupted. */
  #keep(batch: Batch, call: ToolCall, message: ToolResultMessage): void {
    const checkpointed = this.#deps.checkpointed;
    if (checkpointed === undefined || isRepeatable(batch.tools.get(call.name) as Tool)) return;
    this.#deps.port.send({ type: 'TOOLS.RESULT', request: batch.request, result: message, at: this.#deps.port.now() });
    checkpointed().catch((error: unknown) => this.#deps.port.emit(batchFailed(error)));
  }

  /** Reports a call settled without running (unknown tool, bad arguments, denied). */
  #report(batch: Batch, call: ToolCall, result: ToolResult): void {
    this.#emitStart(call);
    this.#record(batch, call, toResultMessage(call, result, this.#deps.port.now()), result);
  }

  #record(batch: Batch, call: ToolCall, message: ToolResultMessage, result: ToolResult): void {
    const control = result.control;
    // A suspended call ends when the user answers: the machine emits its tool_end then.
    if (control?.type !== 'suspend') this.#deps.port.emit(toolEnd(call, message));
    if (control?.type === 'suspend') {
      const suspend: SuspendedCall = { callId: call.id, toolName: call.name, question: control.question };
      if (control.details !== undefined) suspend.details = control.details;
      batch.outcome.suspended.push(suspend);
      return;
    }
    batch.outcome.results.push(message);
    if (control?.type === 'complete') batch.outcome.complete = { value: control.value };
  }

  #context(batch: Batch, call: ToolCall): ToolContext {
    return new CallContext(this, batch, call, this.#deps.port.runId(), this.#deps.port.agentPath, this.#deps.port.sessionId());
  }

  /** Emits a tool_update for a call that is still running in the current batch. */
  update(batch: Batch, call: ToolCall, update: { partial: unknown } | { progress: string }): void {
    if (this.#isCurrent(batch) && batch.running.has(call.id)) this.#deps.port.emit(toolUpdate(call, update));
  }
}

/** What a running call sees of the agent (a class: one per call, no closures). */
class CallContext implements ToolContext {
  readonly #effect: ToolEffect;
  readonly #batch: Batch;
  readonly #call: ToolCall;
  readonly runId: RunId;
  readonly agentPath: AgentPath;
  readonly sessionId: string;

  constructor(effect: ToolEffect, batch: Batch, call: ToolCall, runId: RunId, agentPath: AgentPath, sessionId: string) {
    this.#effect = effect;
    this.#batch = batch;
    this.#call = call;
    this.runId = runId;
    this.agentPath = agentPath;
    this.sessionId = sessionId;
  }

  get toolCallId(): string {
    return this.#call.id;
  }

  get signal(): AbortSignal {
    return abortOf(this.#batch, this.#call).signal;
  }

  onAbort(listener: () => void): () => void {
    return abortOf(this.#batch, this.#call).onAbort(listener);
  }

  update(partial: unknown): void {
    this.#effect.update(this.#batch, this.#call, { partial });
  }

  progress(text: string): void {
    this.#effect.update(this.#batch, this.#call, { progress: text });
  }
}

function failure(call: ToolCall, error: unknown): ToolResult {
  return { content: toolExecutionError(call.name, error instanceof Error ? error.message : String(error)), isError: true };
}

function isPromiseLike<T>(value: T | PromiseLike<T>): value is PromiseLike<T> {
  return typeof (value as { then?: unknown } | null)?.then === 'function';
}

/** The abort of `call`, made on first use (already aborted in a cancelled batch). */
function abortOf(batch: Batch, call: ToolCall): LazyAbort {
  batch.aborts ??= new Map();
  let abort = batch.aborts.get(call.id);
  if (abort === undefined) {
    abort = new LazyAbort();
    if (batch.cancelled) abort.abort();
    batch.aborts.set(call.id, abort);
  }
  return abort;
}

function toResultMessage(call: ToolCall, result: ToolResult, timestamp: number): ToolResultMessage {
  const content = typeof result.content === 'string' ? [{ type: 'text' as const, text: result.content }] : result.content;
  const message: ToolResultMessage = { role: 'toolResult', toolCallId: call.id, toolName: call.name, content, isError: result.isError === true, timestamp };
  if (result.details !== undefined) message.details = result.details;
  return message;
}

/** The calls without a result yet (`skip`: those that have one; usually none, so no set is made). */
function unsettled(calls: ToolCall[], skip: readonly string[]): ToolCall[] {
  if (skip.length === 0) return calls;
  const settled = new Set(skip);
  return calls.filter((call) => !settled.has(call.id));
}
