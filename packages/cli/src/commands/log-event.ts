import type { AgentEvent } from '@troupe/core';
import type { Logger } from '@troupe/runtime';

/**
 * Logs one agent event: tool calls and retries at `info`, errors at `error`, streamed deltas at
 * `trace`, everything else at `debug`. Only what is new is logged, never whole histories.
 */
export function logEvent(logger: Logger, event: AgentEvent): void {
  const where = { runId: event.runId, agent: event.agentPath, seq: event.seq };
  switch (event.type) {
    case 'message_update':
      logger.trace({ ...where, delta: event.delta }, 'delta');
      return;
    case 'tool_start':
      logger.info({ ...where, tool: event.toolName, callId: event.toolCallId, args: event.args }, 'tool call');
      return;
    case 'tool_end':
      logger.info({ ...where, tool: event.toolName, callId: event.toolCallId, isError: event.result.isError }, 'tool result');
      return;
    case 'retry':
      logger.info({ ...where, attempt: event.attempt, delayMs: event.delayMs, error: event.error }, 'retry');
      return;
    case 'error':
      logger.error({ ...where, error: event.error }, 'agent error');
      return;
    case 'agent_end':
      logger.debug({ ...where, stopReason: event.result.stopReason }, event.type);
      return;
    default:
      logger.debug(where, event.type);
  }
}
