import { childPath, type AgentPath, type AgentResult, type RunId, type Tool, type ToolContext, type ToolResult } from '@troupe/core';
import type { ChildOutcome, ChildRecord, RunStore } from '../store/run-store.js';
import type { Instrumentation } from './instrumentation.js';
import type { SpawnRequest, Transport } from './transport.js';

/** How a failed child is retried before its error goes back to the parent. */
export interface SupervisionPolicy {
  /** Extra attempts after a child ends in `error`. Default 0. */
  retries: number;
  /** Wait before the first retry, doubled each time. Default 1000 ms. */
  backoffMs: number;
}

/** What a delegation tool needs to know of its parent and the run. */
export interface DelegationContext {
  transport: Transport;
  store: RunStore;
  parent: AgentPath;
  /** The parent's depth (the entry is 0). */
  depth: number;
  /** The deepest a delegation may go. */
  maxDepth: number;
  supervision: SupervisionPolicy;
  /**
   * Whether the parent was restored from a snapshot: only then may a tool call of it already have
   * a child (its call is being run again), so only then are the records looked up first.
   */
  restored?: boolean;
  /** Waits `ms` unless the signal fires first (injected: tests use a simulated clock). */
  sleep(ms: number, signal: AbortSignal): Promise<void>;
  /** Failures of background writes (a child's recorded outcome). */
  onError?: (error: unknown) => void;
  /** Gives a child the trace context of the tool call that starts it. */
  instrumentation?: Instrumentation;
  /**
   * The children the parent had before (a restored parent goes on counting after them), read once
   * and shared by all the parent's delegation tools: their first calls then number and start
   * children in call order, not in the order separate reads happen to finish. Default: each tool
   * reads the store itself.
   */
  earlierChildren?: (runId: RunId) => Promise<readonly ChildRecord[]>;
}

/** The agent a delegation tool hands tasks to. */
export interface DelegationTarget {
  name: string;
  description?: string;
}

/** What the model sees of a delegation tool. */
interface DelegationSpec {
  name: string;
  description: string;
  parameters: Record<string, unknown>;
}

/**
 * Specs by target (its name and description): every parent actor delegating to the same agent,
 * in any runtime of the process, shares one spec, so its schema object is the same and compiled
 * once (a validator caches compiled schemas per object; a run per runtime would otherwise compile
 * it again each time). A process that meets ever new targets keeps the last {@link MAX_SPECS}.
 */
const specs = new Map<string, DelegationSpec>();
const MAX_SPECS = 1000;

function specOf(child: DelegationTarget): DelegationSpec {
  const key = child.description === undefined ? child.name : `${child.name}\u0000${child.description}`;
  let spec = specs.get(key);
  if (spec === undefined) {
    spec = {
      name: delegationToolName(child.name),
      description: `Delegate a task to the ${child.name} agent${child.description === undefined ? '' : ` (${child.description})`}. It works on its own and returns its final answer.`,
      parameters: {
        type: 'object',
        properties: { task: { type: 'string', minLength: 1, description: `Everything the ${child.name} agent needs to know to do the task.` } },
        required: ['task'],
        additionalProperties: false,
      },
    };
    // The oldest goes first (a Map iterates in insertion order).
    if (specs.size >= MAX_SPECS) specs.delete(specs.keys().next().value as string);
    specs.set(key, spec);
  }
  return spec;
}

/** The name of the tool that delegates to `agent`. */
export function delegationToolName(agent: string): string {
  return `delegate_to_${agent}`;
}

/**
 * A tool that hands a task to a child actor running the graph's agent `child`, waits for it, and
 * returns its final text (or its error text — never an empty result).
 *
 * The child's path is `<parent>/<child>#<n>`, numbered per parent and agent. Each delegation is
 * recorded in the run store under the parent's tool call id, so when a restored parent runs the
 * call again it re-attaches to the same child (or takes its outcome, recorded there or kept by the
 * transport) rather than starting another. Aborting the call aborts the child and, through its own delegations, the
 * whole subtree. A child that ends in `error` is retried per the supervision policy. While the
 * child waits for a host (a remote one no worker has taken), the call's progress says what it waits
 * for (see `Transport.watchUntilTaken`).
 */
export function createDelegationTool(child: DelegationTarget, context: DelegationContext): Tool {
  let seeded: Promise<number> | undefined;
  /** The number of children this parent had before, once read. */
  let base: number | undefined;
  let issued = 0;
  const nextPath = (runId: RunId): AgentPath | Promise<AgentPath> => {
    // Numbered in call order, whenever the count of earlier children arrives.
    const n = ++issued;
    if (base !== undefined) return childPath(context.parent, child.name, base + n);
    // Number children after the ones this parent already had (a restored parent keeps counting).
    const earlier = context.earlierChildren?.(runId) ?? context.store.children(runId, context.parent);
    seeded ??= earlier.then((mine) => (base = mine.filter((c) => c.agent === child.name).length));
    return seeded.then((known) => childPath(context.parent, child.name, known + n));
  };

  const { name, description, parameters } = specOf(child);
  return {
    name,
    description,
    parameters,
    readOnly: true,
    execute: (args, ctx) => delegate(child.name, context, nextPath, String(args['task']), ctx),
  };
}

/** One delegation: hands `task` to a child (the recorded one, for a call run again) and returns its outcome as the tool's result. */
async function delegate(
  agent: string,
  context: DelegationContext,
  nextPath: (runId: RunId) => AgentPath | Promise<AgentPath>,
  task: string,
  ctx: ToolContext,
): Promise<ToolResult> {
  if (context.depth + 1 > context.maxDepth) {
    return { content: `cannot delegate to ${agent}: the delegation depth limit (${context.maxDepth}) is reached`, isError: true };
  }
  const { runId, toolCallId } = ctx;
  const known = context.restored === false ? undefined : await context.store.child(runId, context.parent, toolCallId);
  if (known?.outcome !== undefined) return toToolResult(agent, known.path, known.outcome);
  let record: ChildRecord | undefined = known;
  for (let attempt = 0; ; attempt++) {
    const { path, outcome } = await runChild(agent, context, nextPath, task, ctx, record);
    // The signal is read (and so made) only when a retry may follow.
    const last = outcome.stopReason !== 'error' || attempt >= context.supervision.retries || ctx.signal.aborted;
    if (last) return toToolResult(agent, path, outcome);
    await context.sleep(context.supervision.backoffMs * 2 ** attempt, ctx.signal);
    record = undefined;
  }
}

/** Re-attaches to the recorded child if it is still hosted, else starts a new one; its path and outcome. */
async function runChild(
  agent: string,
  context: DelegationContext,
  nextPath: (runId: RunId) => AgentPath | Promise<AgentPath>,
  task: string,
  ctx: ToolContext,
  existing: ChildRecord | undefined,
): Promise<{ path: AgentPath; outcome: ChildOutcome }> {
  const { runId, toolCallId } = ctx;
  let current = existing;
  let result = current === undefined ? undefined : await waitFor(agent, context, current.path, ctx).catch(() => undefined);
  if (current === undefined || result === undefined) {
    const next = nextPath(runId);
    // Known at once but for a parent's first children: then no await (a tick and a promise) for it.
    const path = typeof next === 'string' ? next : await next;
    current = { parent: context.parent, toolCallId, path, agent, task, depth: context.depth + 1 };
    const request: SpawnRequest = { runId, path: current.path, agent, input: task, depth: current.depth, sessionId: ctx.sessionId, oneShot: true };
    const trace = context.instrumentation?.carrierOf(runId, context.parent, toolCallId);
    if (trace !== undefined) request.trace = trace;
    // Both at once: a crash between them can only cost a child started again, never a wrong answer.
    await Promise.all([context.store.saveChild(runId, current), context.transport.spawn(request)]);
    result = await waitFor(agent, context, current.path, ctx);
  }
  const outcome = outcomeOf(result);
  // Not waited for: the parent need not wait a round trip to a remote store for it. Should
  // the parent be restored before its turn is checkpointed, the child's own snapshot or
  // record still has the outcome (Runtime.resume records it from there). A transport that
  // keeps results answers a restored parent itself, so there it is not written at all.
  if (context.transport.keepsResults !== true) {
    // A record this call made is its own (the store copies what it keeps): it takes the outcome itself.
    const ended = current === existing ? Object.assign({}, current, { outcome }) : Object.assign(current, { outcome });
    context.store.saveChild(runId, ended).catch((error: unknown) => context.onError?.(error));
  }
  return { path: current.path, outcome };
}

/** The result of the child at `path`; aborting the call aborts the child. */
async function waitFor(agent: string, context: DelegationContext, path: AgentPath, ctx: ToolContext): Promise<AgentResult> {
  const { transport } = context;
  const { runId } = ctx;
  const abort = (): void => void transport.control(runId, path, { type: 'abort' }).catch(() => undefined);
  const unlisten = ctx.onAbort?.(abort) ?? listen(ctx.signal, abort);
  // A child on a task queue no worker takes says so as the call's progress, not silence.
  const unwatch = transport.watchUntilTaken?.({ runId, path, agent }, (text) => ctx.progress(text));
  try {
    return await transport.result(runId, path);
  } finally {
    unwatch?.();
    unlisten();
  }
}

/** Calls `listener` once when `signal` fires (at once if it has): for a context without `onAbort`. Returns what removes it. */
function listen(signal: AbortSignal, listener: () => void): () => void {
  if (signal.aborted) {
    listener();
    return () => undefined;
  }
  signal.addEventListener('abort', listener, { once: true });
  return () => signal.removeEventListener('abort', listener);
}

/** The parts of a child's result its parent keeps. */
export function outcomeOf(result: AgentResult): ChildOutcome {
  const outcome: ChildOutcome = { stopReason: result.stopReason, text: result.text, usage: result.usage };
  if (result.error !== undefined) outcome.error = result.error;
  return outcome;
}

function toToolResult(name: string, path: AgentPath, outcome: ChildOutcome): ToolResult {
  const failed = outcome.stopReason === 'error' || outcome.stopReason === 'aborted';
  let text = outcome.text;
  if (failed)
    text = `${name} ${outcome.stopReason === 'aborted' ? 'was aborted' : 'failed'}: ${outcome.error?.message ?? 'no reason given'}${text === '' ? '' : `\n\nIts last words: ${text}`}`;
  else if (text === '') text = `${name} finished (${outcome.stopReason}) without a text answer.`;
  return { content: text, isError: failed, details: { path, stopReason: outcome.stopReason, usage: outcome.usage } };
}
