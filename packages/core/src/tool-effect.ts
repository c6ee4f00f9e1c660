import type { AgentHooks, ToolExecution } from './agent-options.js';
import type { AgentEventPayload } from './events.js';
import type { AgentPath, RunId } from './ids.js';
import { cancelText, errorResult, PERMISSION_DENIED, type CancelReason } from './interrupts.js';
import type { AgentMachineEvent, EffectCommand, SuspendedCall } from './machine-types.js';
import type { ToolCall, ToolResultMessage } from './messages.js';
import { evaluatePermission, type PermissionPolicy } from './permissions.js';
import type { SchemaValidator } from './schema-validator.js';
import type { Tool, ToolContext, ToolResult } from './tool.js';

/** What the tool effect needs. */
export interface ToolEffectDeps {
  tools: ReadonlyMap<string, Tool>;
  validator: SchemaValidator;
  permissions: PermissionPolicy;
  execution: ToolExecution;
  hooks: AgentHooks;
  agentPath: AgentPath;
  runId(): RunId;
  now(): number;
  emit(payload: AgentEventPayload): void;
  send(event: AgentMachineEvent): void;
}

interface Batch {
  request: number;
  controller: AbortController;
  /** Calls started and not yet finished. */
  running: Map<string, ToolCall>;
}

type ToolsCommand = Extract<EffectCommand, { type: 'cmd.tools' }>;

/**
 * The long-lived effect that carries out `cmd.tools`: validates each call's arguments, applies the
 * permission policy, runs the allowed calls (parallel, sequential or batched) and reports each
 * result to the machine as it finishes, then `TOOLS.DONE`. If any call needs the user's approval
 * it reports `TOOLS.ASK` before running anything, so `waiting_user` never has tools in flight.
 */
export class ToolEffect {
  readonly #deps: ToolEffectDeps;
  #current: Batch | undefined;

  constructor(deps: ToolEffectDeps) {
    this.#deps = deps;
  }

  run(command: ToolsCommand): void {
    const batch: Batch = { request: command.request, controller: new AbortController(), running: new Map() };
    this.#current = batch;
    const runnable = this.#vet(batch, command);
    if (runnable === undefined) return;
    this.#execute(batch, runnable)
      .then(() => this.#isCurrent(batch) && this.#deps.send({ type: 'TOOLS.DONE', request: batch.request, at: this.#deps.now() }))
      .catch((error: unknown) => this.#deps.emit({ type: 'error', error: { code: 'internal', message: `tool batch failed: ${String(error)}` } }));
  }

  /** Aborts every running call of `request`; each gets a `tool_end` with the cancellation text. */
  cancel(request: number, reason: CancelReason): void {
    const batch = this.#current;
    if (batch === undefined || batch.request !== request) return;
    this.#current = undefined;
    batch.controller.abort();
    const now = this.#deps.now();
    for (const call of batch.running.values()) {
      this.#deps.emit({ type: 'tool_end', toolCallId: call.id, toolName: call.name, result: errorResult(call, cancelText(reason), now) });
    }
    batch.running.clear();
  }

  #isCurrent(batch: Batch): boolean {
    return this.#current === batch;
  }

  /** Settles what needs no execution; returns the calls to run, or undefined when asking the user. */
  #vet(batch: Batch, command: ToolsCommand): ToolCall[] | undefined {
    const { tools, validator, permissions } = this.#deps;
    const skip = new Set(command.skip);
    const runnable: ToolCall[] = [];
    let ask: ToolCall | undefined;
    for (const call of command.calls) {
      if (skip.has(call.id)) continue;
      const tool = tools.get(call.name);
      const problem = tool === undefined ? unknownTool(call, tools) : invalidArguments(call, tool, validator);
      if (problem !== undefined) {
        this.#report(batch, call, { content: problem, isError: true }, false);
        continue;
      }
      const verdict = command.decisions[call.id] ?? evaluatePermission(permissions, command.remembered, call, tool);
      if (verdict === 'deny') this.#report(batch, call, { content: PERMISSION_DENIED, isError: true }, false);
      else if (verdict === 'ask') ask ??= call;
      else runnable.push(call);
    }
    if (ask !== undefined) {
      this.#deps.send({ type: 'TOOLS.ASK', request: batch.request, callId: ask.id, at: this.#deps.now() });
      return undefined;
    }
    return runnable;
  }

  async #execute(batch: Batch, calls: ToolCall[]): Promise<void> {
    const execution = this.#deps.execution;
    if (execution.mode === 'parallel') {
      await Promise.all(calls.map((call) => this.#runOne(batch, call)));
      return;
    }
    const size = execution.mode === 'sequential' ? 1 : Math.max(1, execution.size);
    for (let i = 0; i < calls.length && this.#isCurrent(batch); i += size) {
      await Promise.all(calls.slice(i, i + size).map((call) => this.#runOne(batch, call)));
    }
  }

  async #runOne(batch: Batch, call: ToolCall): Promise<void> {
    if (!this.#isCurrent(batch)) return;
    const { tools, hooks, emit } = this.#deps;
    const tool = tools.get(call.name) as Tool;
    const signal = batch.controller.signal;
    batch.running.set(call.id, call);
    emit({ type: 'tool_start', toolCallId: call.id, toolName: call.name, args: call.arguments });
    let result: ToolResult;
    try {
      const veto = hooks.beforeToolCall === undefined ? undefined : await hooks.beforeToolCall(call, { signal });
      result = veto === undefined ? await tool.execute(call.arguments, this.#context(batch, call)) : { content: `blocked: ${veto.veto}`, isError: true };
    } catch (error) {
      result = { content: `${call.name} failed: ${error instanceof Error ? error.message : String(error)}`, isError: true };
    }
    if (!this.#isCurrent(batch)) return;
    batch.running.delete(call.id);
    await this.#finish(batch, call, result);
  }

  async #finish(batch: Batch, call: ToolCall, result: ToolResult): Promise<void> {
    let message = toResultMessage(call, result, this.#deps.now());
    const after = this.#deps.hooks.afterToolCall;
    if (after !== undefined) {
      try {
        message = (await after(call, message)) ?? message;
      } catch (error) {
        message = errorResult(call, `afterToolCall hook failed: ${error instanceof Error ? error.message : String(error)}`, message.timestamp);
      }
      if (!this.#isCurrent(batch)) return;
    }
    this.#deliver(batch, call, message, result);
  }

  /** Reports a call settled without running (unknown tool, bad arguments, denied). */
  #report(batch: Batch, call: ToolCall, result: ToolResult, started: boolean): void {
    if (!started) this.#deps.emit({ type: 'tool_start', toolCallId: call.id, toolName: call.name, args: call.arguments });
    this.#deliver(batch, call, toResultMessage(call, result, this.#deps.now()), result);
  }

  #deliver(batch: Batch, call: ToolCall, message: ToolResultMessage, result: ToolResult): void {
    const { emit, send, now } = this.#deps;
    emit({ type: 'tool_end', toolCallId: call.id, toolName: call.name, result: message });
    const event: Extract<AgentMachineEvent, { type: 'TOOL.RESULT' }> = { type: 'TOOL.RESULT', request: batch.request, result: message, at: now() };
    const control = result.control;
    if (control?.type === 'suspend') {
      const suspend: SuspendedCall = { callId: call.id, toolName: call.name, question: control.question };
      if (control.details !== undefined) suspend.details = control.details;
      event.suspend = suspend;
    } else if (control?.type === 'complete') {
      event.complete = { value: control.value };
    }
    send(event);
  }

  #context(batch: Batch, call: ToolCall): ToolContext {
    const { emit, agentPath } = this.#deps;
    const live = (): boolean => this.#isCurrent(batch) && batch.running.has(call.id);
    return {
      toolCallId: call.id,
      runId: this.#deps.runId(),
      agentPath,
      signal: batch.controller.signal,
      update: (partial) => live() && emit({ type: 'tool_update', toolCallId: call.id, toolName: call.name, partial }),
      progress: (text) => live() && emit({ type: 'tool_update', toolCallId: call.id, toolName: call.name, progress: text }),
    };
  }
}

function toResultMessage(call: ToolCall, result: ToolResult, timestamp: number): ToolResultMessage {
  const content = typeof result.content === 'string' ? [{ type: 'text' as const, text: result.content }] : result.content;
  const message: ToolResultMessage = { role: 'toolResult', toolCallId: call.id, toolName: call.name, content, isError: result.isError === true, timestamp };
  if (result.details !== undefined) message.details = result.details;
  return message;
}

function unknownTool(call: ToolCall, tools: ReadonlyMap<string, Tool>): string {
  const names = [...tools.keys()];
  return `unknown tool "${call.name}". Available tools: ${names.length === 0 ? '(none)' : names.join(', ')}`;
}

function invalidArguments(call: ToolCall, tool: Tool, validator: SchemaValidator): string | undefined {
  if (call.rawArguments !== undefined) {
    const raw = call.rawArguments.length > 200 ? `${call.rawArguments.slice(0, 200)}…` : call.rawArguments;
    return `invalid arguments for ${call.name}: not a JSON object: ${raw}`;
  }
  const outcome = validator.compile(tool.parameters)(call.arguments);
  return outcome.ok ? undefined : `invalid arguments for ${call.name}: ${outcome.problems.join('; ')}`;
}
