import type { AgentResult, AgentStateName } from './agent-result.js';
import type { AgentSnapshot } from './agent-snapshot.js';
import { buildResult } from './run-result.js';

/** The top-level state a snapshot was taken in (`thinking` for `{ thinking: 'retrying' }`). */
export function snapshotState(snapshot: AgentSnapshot): AgentStateName {
  return (typeof snapshot.state === 'string' ? snapshot.state : Object.keys(snapshot.state)[0]) as AgentStateName;
}

/** Whether the snapshot's agent is in the middle of a run (thinking, executing tools, or waiting for a user). */
export function isSnapshotActive(snapshot: AgentSnapshot): boolean {
  const state = snapshotState(snapshot);
  return state === 'thinking' || state === 'tool_executing' || state === 'waiting_user';
}

/**
 * The result of the run a snapshot shows ended (`done`, `aborted`, `error`), as `agent_end`
 * carried it — but for its duration, which a snapshot does not keep (0). Undefined when the
 * snapshot's agent has no ended run.
 */
export function snapshotResult(snapshot: AgentSnapshot): AgentResult | undefined {
  const run = snapshot.context.run;
  if (run === null || isSnapshotActive(snapshot) || snapshotState(snapshot) === 'idle') return undefined;
  return buildResult(snapshot.context.messages, run, run.startedAt);
}
