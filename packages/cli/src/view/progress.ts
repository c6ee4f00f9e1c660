import type { AgentEvent } from '@troupe/core';
import type { Writer } from '../cli-io.js';
import { ActorTree, formatRow } from './actor-tree.js';

/** Shows a run's progress on standard error as its events arrive. */
export interface ProgressView {
  onEvent(event: AgentEvent): void;
  /** Clears whatever a live view drew, before other output is written or at the end. */
  clear(): void;
}

/**
 * On a terminal: the actor tree, redrawn in place (at most every `intervalMs`), each actor with
 * its state, running tools, turns, tokens and cost. Call `clear()` before writing anything else
 * to the same terminal.
 */
export function liveProgress(err: Writer, intervalMs = 100, now: () => number = Date.now): ProgressView {
  const tree = new ActorTree();
  let drawn = 0;
  let last = 0;
  const erase = (): void => {
    if (drawn > 0) err(`\x1b[${drawn}F\x1b[J`);
    drawn = 0;
  };
  const draw = (): void => {
    erase();
    const lines = tree.rows.map(formatRow);
    if (lines.length > 0) err(`${lines.join('\n')}\n`);
    drawn = lines.length;
    last = now();
  };
  return {
    onEvent(event) {
      if (!tree.apply(event)) return;
      if (event.type === 'agent_end' || event.type === 'state' || now() - last >= intervalMs) draw();
    },
    clear: erase,
  };
}

/** Off a terminal: one plain line per state change or tool call (`[lead/researcher#1] thinking`). */
export function lineProgress(err: Writer): ProgressView {
  return {
    onEvent(event) {
      const at = `[${event.agentPath}]`;
      if (event.type === 'state') err(`${at} ${event.state}\n`);
      else if (event.type === 'tool_start') err(`${at} tool ${event.toolName}\n`);
      else if (event.type === 'agent_end') err(`${at} ended: ${event.result.stopReason}\n`);
    },
    clear: () => undefined,
  };
}
