import type { AgentEvent, AgentEventPayload, AgentPath, RunId } from '@troupe/core';

let seq = 0;

/** An event of the actor at `path`, stamped at `ts` (ms). */
export function eventAt(path: string, payload: AgentEventPayload, ts = 0): AgentEvent {
  seq += 1;
  return { ...payload, runId: 'run_1' as RunId, agentPath: path as AgentPath, seq, ts } as AgentEvent;
}
