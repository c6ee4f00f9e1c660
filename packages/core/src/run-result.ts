/**
 * The result of a run, built from its state and the history it wrote: what `agent_end` carries
 * and what a snapshot of an ended run reports.
 */
import type { AgentResult } from './agent-result.js';
import type { ErrorInfo } from './errors.js';
import type { RunId } from './ids.js';
import type { RunState } from './machine-types.js';
import { emptyUsage } from './usage.js';
import { textOf, type Message } from './messages.js';

/** The result `agent_end` carries for `run`, its messages taken from `history`, ended at `at`. */
export function buildResult(history: readonly Message[], run: RunState, at: number): AgentResult {
  const end = run.end ?? { stopReason: 'error' as const };
  const messages = history.slice(Math.min(run.startIndex, history.length));
  let text = '';
  for (let i = messages.length - 1; i >= 0; i--) {
    const message = messages[i];
    if (message?.role === 'assistant' && message.stopReason !== 'error') {
      text = textOf(message);
      break;
    }
  }
  const result: AgentResult = { runId: run.id, stopReason: end.stopReason, messages, text, turns: run.turns, usage: run.usage, durationMs: at - run.startedAt };
  if (end.error !== undefined) result.error = end.error;
  if (end.limit !== undefined) result.limit = end.limit;
  if (end.value !== undefined) result.value = end.value;
  return result;
}

/** The result of a run whose statechart crashed (a bug in the machine): an error, with what the run had counted. */
export function crashedResult(runId: RunId, run: RunState | null | undefined, error: ErrorInfo): AgentResult {
  return { runId, stopReason: 'error', messages: [], text: '', turns: run?.turns ?? 0, usage: run?.usage ?? emptyUsage(), durationMs: 0, error };
}
