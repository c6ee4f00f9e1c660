import { ErrorCode } from './errors.js';
import type { ToolCall, ToolResultMessage } from './messages.js';
import { NO_PATH, NO_RUN, NO_TS, type UnstampedEvent } from './unstamped-event.js';

/** The `tool_start` event of `call`, made with its envelope placeholders (see unstamped-event.ts). */
export function toolStart(call: ToolCall): UnstampedEvent {
  return { type: 'tool_start', toolCallId: call.id, toolName: call.name, args: call.arguments, runId: NO_RUN, agentPath: NO_PATH, seq: 0, ts: NO_TS };
}

/** The `tool_end` event of `call` with its `result`. */
export function toolEnd(call: ToolCall, result: ToolResultMessage): UnstampedEvent {
  return { type: 'tool_end', toolCallId: call.id, toolName: call.name, result, runId: NO_RUN, agentPath: NO_PATH, seq: 0, ts: NO_TS };
}

/** A `tool_update` event of `call`: a partial result or a progress line. */
export function toolUpdate(call: ToolCall, update: { partial: unknown } | { progress: string }): UnstampedEvent {
  return { type: 'tool_update', toolCallId: call.id, toolName: call.name, ...update, runId: NO_RUN, agentPath: NO_PATH, seq: 0, ts: NO_TS };
}

/** The `error` event of a tool batch that failed outside any one call (a bug: calls catch their own). */
export function batchFailed(error: unknown): UnstampedEvent {
  return {
    type: 'error',
    error: { code: ErrorCode.Internal, message: `tool batch failed: ${String(error)}` },
    runId: NO_RUN,
    agentPath: NO_PATH,
    seq: 0,
    ts: NO_TS,
  };
}
