/**
 * The texts the agent writes into the history when something other than a tool's own answer
 * settles a call or ends a run. Where the seeds give a text (the agentic flow spec's interrupt
 * constants and its Appendix B, the Swink PRD's steering interrupt), it is used word for word.
 */
import type { ToolCall, ToolResultMessage } from './messages.js';

/** The user message recorded when the user aborts a run while no tool call was pending. */
export const INTERRUPT_USER = '[Request interrupted by user]';

/** The result text of a call the user interrupted (abort, or a `deny_interrupt`), followed by {@link INTERRUPT_EXPLANATION}. */
export const INTERRUPT_TOOL = '[Request interrupted by user for tool use]';

/** Follows {@link INTERRUPT_TOOL} in the result of every call the user interrupted. */
export const INTERRUPT_EXPLANATION =
  "The user doesn't want to proceed with this tool use. The tool use was rejected (eg. if it was a file edit, the new_string was NOT written to the file). STOP what you are doing and wait for the user to tell you how to proceed.";

/** The whole result text of an interrupted call: {@link INTERRUPT_TOOL}, a blank line, {@link INTERRUPT_EXPLANATION}. */
export const INTERRUPTED_TOOL_RESULT = `${INTERRUPT_TOOL}\n\n${INTERRUPT_EXPLANATION}`;

/** The result text of a call cancelled because a steering message arrived. */
export const SKIPPED_BY_STEERING = 'tool call cancelled: user requested steering interrupt';

/** Why a streamed reply was closed as failed when the user aborted it. */
export const STREAM_ABORTED = 'Stream aborted by user';

/** The result text of a call the permission policy denied: `Permission to use bash has been denied`. */
export function permissionDenied(toolName: string): string {
  return `Permission to use ${toolName} has been denied`;
}

/** The result text of a call of a tool the user refused for the session (`deny_never`). */
export function permissionDeniedPermanently(toolName: string): string {
  return `Permission to use ${toolName} has been permanently denied`;
}

/** The result text of a tool that threw or rejected: `Error executing bash: spawn ENOENT`. */
export function toolExecutionError(toolName: string, message: string): string {
  return `Error executing ${toolName}: ${message}`;
}

/** The result text of a call cut off by the output-token limit. */
export const INCOMPLETE_TOOL_CALL =
  'tool call incomplete: the response reached the output token limit before the call was complete; it was not run. Call the tool again.';

/**
 * The result text of a call that was running when the agent's snapshot was taken, and that is not
 * safe to run twice: the restored agent does not run it again (see `Tool.idempotent`).
 */
export const INTERRUPTED_BY_RESTORE =
  'tool call interrupted: the process running it stopped before it finished, so it may or may not have taken effect. It was not run again: check its effect before calling it again.';

/** The result text of calls cancelled because a run limit was reached. */
export const LIMIT_REACHED = '[Run stopped: limit reached before the tool finished]';

/** The user message that keeps a run in task mode going after a reply without tool calls. */
export const TASK_REMINDER = 'Continue with the task. When it is fully done, call the task_complete tool with a summary of what was accomplished.';

/** An error tool result answering `call` with `text`. */
export function errorResult(call: Pick<ToolCall, 'id' | 'name'>, text: string, timestamp: number, details?: unknown): ToolResultMessage {
  const result: ToolResultMessage = {
    role: 'toolResult',
    toolCallId: call.id,
    toolName: call.name,
    content: [{ type: 'text', text }],
    isError: true,
    timestamp,
  };
  if (details !== undefined) result.details = details;
  return result;
}

/** Why running calls were cancelled. */
export type CancelReason = 'abort' | 'steering' | 'limit';

/** The result text of a call cancelled for `reason`. */
export function cancelText(reason: CancelReason): string {
  switch (reason) {
    case 'abort':
      return INTERRUPTED_TOOL_RESULT;
    case 'steering':
      return SKIPPED_BY_STEERING;
    case 'limit':
      return LIMIT_REACHED;
  }
}
