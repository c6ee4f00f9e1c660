import { emptyUsage, type AgentEvent, type AgentEventPayload, type AgentPath, type RunId } from '@troupe/core';

let seq = 0;

/** An event of `path` (default the entry `assistant`), with its envelope stamped on. */
export function ev(payload: AgentEventPayload, path = 'assistant'): AgentEvent {
  seq += 1;
  return { ...payload, runId: 'run_test' as RunId, agentPath: path as AgentPath, seq, ts: seq } as AgentEvent;
}

/** An assistant message with `text` (and tool calls). */
export function reply(text: string) {
  return {
    role: 'assistant' as const,
    content: [{ type: 'text' as const, text }],
    stopReason: 'stop' as const,
    usage: emptyUsage(),
    model: 'scripted:test',
    timestamp: 1,
  };
}
