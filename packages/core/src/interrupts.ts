import type { ToolCall, ToolResultMessage } from './messages.js';

/** The result text of a call the user interrupted (abort, or a `deny_interrupt` elsewhere in the turn). */
export const INTERRUPT_TOOL = '[Request interrupted by user for tool use]';

/** Appended to {@link INTERRUPT_TOOL} for the call the user rejected with `deny_interrupt`. */
export const INTERRUPT_EXPLANATION =
  "The user doesn't want to proceed with this tool use. The tool use was rejected (eg. if it was a file edit, the new_string was NOT written to the file). STOP what you are doing and wait for the user to tell you how to proceed.";

/** The result text of a call cancelled because a steering message arrived. */
export const SKIPPED_BY_STEERING = 'skipped: steering message arrived';

/** The result text of a call the user refused with `deny_never` or the policy denied. */
export const PERMISSION_DENIED = 'permission denied';

/** The result text of a call cut off by the output-token limit. */
export const INCOMPLETE_TOOL_CALL =
  'tool call incomplete: the response reached the output token limit before the call was complete; it was not run. Call the tool again.';

/** The result text of calls cancelled because a run limit was reached. */
export const LIMIT_REACHED = '[Run stopped: limit reached before the tool finished]';

/** An error tool result answering `call` with `text`. */
export function errorResult(call: Pick<ToolCall, 'id' | 'name'>, text: string, timestamp: number, details?: unknown): ToolResultMessage {
  const result: ToolResultMessage = {
    role: 'toolResult', toolCallId: call.id, toolName: call.name, content: [{ type: 'text', text }], isError: true, timestamp,
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
      return INTERRUPT_TOOL;
    case 'steering':
      return SKIPPED_BY_STEERING;
    case 'limit':
      return LIMIT_REACHED;
  }
}
