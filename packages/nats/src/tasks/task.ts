import type { JsMsg } from '@nats-io/jetstream';
import { parseAgentPath, parseRunId, TroupeError, type AgentPath, type RunId } from '@troupe/core';
import type { ControlCommand, SpawnRequest, TraceCarrier } from '@troupe/runtime';
import { NatsErrorCode } from '../nats-error-code.js';
import { traceField, traceFromHeaders } from './trace-headers.js';

/** The header carrying the fingerprint of the graph a task was made for (see `graphHash`). */
export const GRAPH_HEADER = 'Troupe-Graph';

/**
 * A unit of work on the tasks stream: host the actor at `path` — fresh with `input`, or from its
 * latest snapshot when it has one (a redelivery after its worker died, or a wake-up of an actor
 * set aside while waiting for a user, with the `command` that wakes it).
 */
export interface Task {
  runId: RunId;
  path: AgentPath;
  agent: string;
  depth: number;
  input?: string;
  command?: ControlCommand;
  /** Look for the actor's checkpoint first: it ran before (handed over by a stopping worker, or restored). */
  resume?: boolean;
  /** The session a fresh actor's runs belong to (see `SpawnRequest.sessionId`). */
  sessionId?: string;
  /**
   * The trace context its actor starts in (see `SpawnRequest.trace`). Not in the body: it travels
   * as the message's W3C headers `traceparent` and `tracestate` (see `stampTrace`).
   */
  trace?: TraceCarrier;
}

/** The message body of `task`: every field but its `trace`, which goes in headers. */
export function encodeTask(task: Task): string {
  const { trace: _trace, ...body } = task;
  return JSON.stringify(body);
}

/** Reads a task message: its body (see {@link parseTask}) and the trace context of its headers. */
export function readTask(msg: Pick<JsMsg, 'string' | 'headers'>): Task {
  return { ...parseTask(msg.string()), ...traceField(traceFromHeaders(msg.headers)) };
}

/** The spawn request that hosts `task`'s actor (without its input or snapshot), in `trace`'s context (default: the task's). */
export function spawnRequestOf(task: Task, trace = task.trace): SpawnRequest {
  const request: SpawnRequest = { runId: task.runId, path: task.path, agent: task.agent, depth: task.depth, ...traceField(trace) };
  if (task.sessionId !== undefined) request.sessionId = task.sessionId;
  return request;
}

/** Reads a task body; throws a `task_malformed` TroupeError saying what is wrong. */
export function parseTask(body: string): Task {
  let value: unknown;
  try {
    value = JSON.parse(body);
  } catch (error) {
    throw new TroupeError(NatsErrorCode.TaskMalformed, 'the task is not JSON', { cause: error });
  }
  if (typeof value !== 'object' || value === null) throw new TroupeError(NatsErrorCode.TaskMalformed, 'the task is not an object');
  const { runId, path, agent, depth, input, command, resume, sessionId } = value as Record<string, unknown>;
  if (typeof runId !== 'string' || typeof path !== 'string' || typeof agent !== 'string' || typeof depth !== 'number') {
    throw new TroupeError(NatsErrorCode.TaskMalformed, 'the task lacks runId, path, agent or depth');
  }
  let task: Task;
  try {
    task = { runId: parseRunId(runId), path: parseAgentPath(path), agent, depth };
  } catch (error) {
    throw new TroupeError(NatsErrorCode.TaskMalformed, error instanceof Error ? error.message : String(error), { cause: error });
  }
  if (typeof input === 'string') task.input = input;
  if (typeof sessionId === 'string') task.sessionId = sessionId;
  if (resume === true) task.resume = true;
  if (typeof command === 'object' && command !== null && typeof (command as { type?: unknown }).type === 'string') task.command = command as ControlCommand;
  return task;
}
