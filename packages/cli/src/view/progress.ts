import type { AgentEvent, AgentEventOf, AgentResult } from '@troupe/core';
import type { PipelineStepConfig } from '@troupe/runtime';
import { ActorTree } from './actor-tree.js';
import { firstLine } from './fit.js';
import type { Screen } from './screen.js';
import { statusLines } from './status-lines.js';
import type { Style } from './style.js';
import { callSummary, resultSummary } from './tool-summary.js';

/** Shows a run's progress as its events arrive. */
export interface ProgressView {
  onEvent(event: AgentEvent): void;
  /** The actors seen so far. */
  readonly tree: ActorTree;
  /** Stops redrawing (the run has ended or is left). */
  stop(): void;
}

/** What a progress view is told about the run beforehand. */
export interface ProgressOptions {
  /** The entry's path: its tool calls are noted without it. */
  entry: string;
  /** A pipeline entry's steps, shown (pending) before they run. */
  steps?: readonly PipelineStepConfig[];
  style: Style;
  now?: () => number;
}

/** How often elapsed times in the live tree move on while nothing else happens. */
const TICK_MS = 500;

function newTree(options: ProgressOptions): ActorTree {
  const tree = new ActorTree();
  if (options.steps !== undefined) tree.layout(options.entry, options.steps);
  return tree;
}

/** A tool call's key in a run: call ids are unique per actor only. */
function callKey(event: AgentEventOf<'tool_start' | 'tool_end'>): string {
  return `${event.agentPath} ${event.toolCallId}`;
}

/** `→ result` or `✗ error`, for a finished tool call. */
function outcome(event: AgentEventOf<'tool_end'>, style: Style): string {
  const { text, isError } = resultSummary(event.result);
  return isError ? style.red(`✗ ${text}`) : `${style.dim('→')} ${text}`;
}

/** Whether `path` is a step of the pipeline entry (not an actor a step delegated to: those have `#n`). */
function isStepActor(path: string, options: ProgressOptions): boolean {
  return options.steps !== undefined && path.startsWith(`${options.entry}/`) && !path.includes('#');
}

/** `→ its answer's first line`, or `✗ why it failed`. */
function stepOutcome(result: AgentResult, style: Style): string {
  if (result.stopReason === 'error' || result.stopReason === 'aborted') return style.red(`✗ ${result.error?.message ?? result.stopReason}`);
  return `${style.dim('→')} ${firstLine(result.text) || '(no text)'}`;
}

/**
 * On a terminal: the actor tree in the screen's live area (each actor's state, the tool it runs
 * and for how long, its turns, tokens and cost), and one note per finished tool call that stays
 * above it: `  ⎿ clock() → 2026-…`, with the actor's path when it is not the entry; a pipeline's steps
 * each get a note with their answer's first line when they end.
 */
export function liveProgress(screen: Screen, options: ProgressOptions): ProgressView {
  const now = options.now ?? Date.now;
  const { style } = options;
  const tree = newTree(options);
  // Arguments of the calls running now, for the note written when each ends.
  const calls = new Map<string, Record<string, unknown>>();
  const redraw = (): void => screen.status(statusLines(tree.rows, now(), style, screen.width));
  const ticker = setInterval(redraw, TICK_MS);
  ticker.unref();
  redraw();
  return {
    tree,
    onEvent(event) {
      if (event.type === 'tool_start') calls.set(callKey(event), event.args);
      else if (event.type === 'tool_end') {
        const who = event.agentPath === options.entry ? '' : `${style.dim(event.agentPath)} `;
        screen.note(`  ${style.dim('⎿')} ${who}${callSummary(event.toolName, calls.get(callKey(event)) ?? {})} ${outcome(event, style)}`);
        calls.delete(callKey(event));
      } else if (event.type === 'agent_end' && isStepActor(event.agentPath, options)) {
        screen.note(`  ${style.dim('⎿')} ${style.dim(event.agentPath)} ${stepOutcome(event.result, style)}`);
      }
      if (tree.apply(event)) redraw();
    },
    stop: () => clearInterval(ticker),
  };
}

/** Off a terminal: one line per state change, tool call, tool progress and result, prefixed with the actor's path. */
export function lineProgress(screen: Screen, options: ProgressOptions): ProgressView {
  const tree = newTree(options);
  return {
    tree,
    onEvent(event) {
      const at = `[${event.agentPath}]`;
      if (event.type === 'state') screen.note(`${at} ${event.state}`);
      else if (event.type === 'tool_start') screen.note(`${at} tool ${callSummary(event.toolName, event.args)}`);
      else if (event.type === 'tool_update' && event.progress !== undefined) screen.note(`${at} ${event.toolName}: ${event.progress}`);
      else if (event.type === 'tool_end') screen.note(`${at} ${event.toolName} ${outcome(event, options.style)}`);
      else if (event.type === 'agent_end') screen.note(`${at} ended: ${event.result.stopReason}`);
      tree.apply(event);
    },
    stop: () => undefined,
  };
}
