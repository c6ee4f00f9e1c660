import { addUsage, emptyUsage, type AgentEvent, type AgentStateName, type Usage } from '@troupe/core';
import type { PipelineStepConfig } from '@troupe/runtime';

/** A tool call an actor is running, since when (ms since the epoch, from its event), and what it last reported. */
export interface RunningTool {
  callId: string;
  name: string;
  since: number;
  progress?: string;
}

/** What the CLI shows of one actor, or of a group of actors (a pipeline, a map or parallel step). */
export interface ActorRow {
  path: string;
  /** An actor, or a node that only holds actors (a pipeline or one of its fan-out steps). */
  kind: 'actor' | 'group';
  /** `queued`: known, no event yet; `pending`: a pipeline step that has not started. */
  state: AgentStateName | 'queued' | 'pending';
  /** When the current state began (ms since the epoch), when known. */
  since?: number;
  turns: number;
  usage: Usage;
  /** Tools running now. */
  tools: RunningTool[];
  /** Why it ended, once it has. */
  stopReason?: string;
  /** A group's actors below it (at any depth) by what they do: running, ended, not started. */
  counts?: { running: number; ended: number; waiting: number };
  /** Depth in the tree (0 for the entry). */
  depth: number;
  /** Whether it is the last child of its parent (for drawing the tree). */
  last: boolean;
}

interface Node extends Omit<ActorRow, 'depth' | 'last'> {
  children: Node[];
}

/**
 * The actors of a run as its events describe them: each one's state, turns, running tools,
 * tokens and cost, arranged as a tree by path. Children keep the order they appeared in, actors
 * of one kind by their number (`#1` before `#2`, map item 1 before 2, even when #2's first event
 * came first), and a pipeline's steps their order once {@link ActorTree.layout} has placed them. Fed every event, live or read back from a run's log.
 */
export class ActorTree {
  readonly #nodes = new Map<string, Node>();
  readonly #roots: Node[] = [];

  /** Applies one event; returns whether anything shown changed. */
  apply(event: AgentEvent): boolean {
    const node = this.#node(event.agentPath, 'actor');
    node.kind = 'actor';
    switch (event.type) {
      case 'state':
        node.state = event.state;
        node.since = event.ts;
        if (event.state !== 'tool_executing') node.tools = [];
        return true;
      case 'turn_start':
        node.turns = event.turn;
        return true;
      case 'usage':
        node.usage = addUsage(node.usage, event.usage);
        return true;
      case 'tool_start':
        node.tools = [...node.tools, { callId: event.toolCallId, name: event.toolName, since: event.ts }];
        return true;
      case 'tool_update': {
        const tool = node.tools.find((running) => running.callId === event.toolCallId);
        if (tool === undefined || event.progress === undefined) return false;
        tool.progress = event.progress;
        return true;
      }
      case 'tool_end':
        node.tools = node.tools.filter((running) => running.callId !== event.toolCallId);
        return true;
      case 'agent_end':
        node.stopReason = event.result.stopReason;
        return true;
      default:
        return false;
    }
  }

  /** Makes sure `path` has a row, even before any event of it (a queued actor). */
  track(path: string): void {
    this.#node(path, 'actor');
  }

  /**
   * Places a pipeline's steps under its root `pipeline`, in order, before any of them runs: an
   * agent step is an actor row, a `parallel` step a group of its agent steps, a `map` step a group
   * its items join as they start.
   */
  layout(pipeline: string, steps: readonly PipelineStepConfig[]): void {
    this.#node(pipeline, 'group');
    for (const step of steps) {
      const path = `${pipeline}/${step.id}`;
      const node = this.#node(path, step.kind === 'agent' ? 'actor' : 'group');
      node.state = 'pending';
      if (step.kind === 'parallel') for (const sub of step.steps) this.#node(`${path}/${sub.id}`, 'actor').state = 'pending';
    }
  }

  /** Every row in tree order (a parent before its children), with its depth; groups count their actors. */
  get rows(): ActorRow[] {
    const rows: ActorRow[] = [];
    const walk = (nodes: readonly Node[], depth: number): ActorRow[] => {
      const actors: ActorRow[] = [];
      nodes.forEach((node, i) => {
        const { children, ...fields } = node;
        const row: ActorRow = { ...fields, depth, last: i === nodes.length - 1 };
        rows.push(row);
        const below = walk(children, depth + 1);
        if (row.kind === 'group') row.counts = countsOf(below);
        else actors.push(row);
        actors.push(...below);
      });
      return actors;
    };
    walk(this.#roots, 0);
    return rows;
  }

  /** Usage summed over every actor. */
  get usage(): Usage {
    let total = emptyUsage();
    for (const node of this.#nodes.values()) total = addUsage(total, node.usage);
    return total;
  }

  #node(path: string, kind: ActorRow['kind']): Node {
    let node = this.#nodes.get(path);
    if (node === undefined) {
      node = { path, kind, state: 'queued', turns: 0, usage: emptyUsage(), tools: [], children: [] };
      this.#nodes.set(path, node);
      const cut = path.lastIndexOf('/');
      if (cut < 0) this.#roots.push(node);
      else insertInOrder(this.#node(path.slice(0, cut), 'group').children, node);
    }
    return node;
  }
}

/** A child's name split into its base and number: `researcher#2` → researcher, 2; a map item `3` → '', 3. */
function numbered(path: string): { base: string; index: number } | undefined {
  const name = path.slice(path.lastIndexOf('/') + 1);
  const match = /^(.*?)#?(\d+)$/.exec(name);
  return match === null ? undefined : { base: match[1] ?? '', index: Number(match[2]) };
}

/**
 * Adds `node` to `siblings` in the order actors of one kind were numbered (`#1` before `#2`, map
 * item 1 before 2), whatever order their first events arrived in; others go last.
 */
function insertInOrder(siblings: Node[], node: Node): void {
  const own = numbered(node.path);
  const before =
    own === undefined
      ? -1
      : siblings.findIndex((sibling) => {
          const other = numbered(sibling.path);
          return other !== undefined && other.base === own.base && other.index > own.index;
        });
  if (before < 0) siblings.push(node);
  else siblings.splice(before, 0, node);
}

const ENDED: ReadonlySet<ActorRow['state']> = new Set(['done', 'aborted', 'error']);
const NOT_STARTED: ReadonlySet<ActorRow['state']> = new Set(['queued', 'pending']);

function countsOf(actors: readonly ActorRow[]): NonNullable<ActorRow['counts']> {
  const counts = { running: 0, ended: 0, waiting: 0 };
  for (const actor of actors) {
    if (ENDED.has(actor.state)) counts.ended += 1;
    else if (NOT_STARTED.has(actor.state)) counts.waiting += 1;
    else counts.running += 1;
  }
  return counts;
}

/** `$0.0123`, or `$?` when some price was unknown. */
export function formatCost(usage: Usage): string {
  return usage.cost.unknown === true ? '$?' : `$${usage.cost.total.toFixed(4)}`;
}

/** `1 turn`, `2 turns`. */
export function plural(count: number, noun: string): string {
  return `${count.toLocaleString('en-US')} ${noun}${count === 1 ? '' : 's'}`;
}

/** The last segment of a path: the name shown in a tree. */
export function nameOf(path: string): string {
  return path.slice(path.lastIndexOf('/') + 1);
}

/** One line of the tree as `troupe show` prints it: indented by depth, then state, tools, turns, tokens, cost. */
export function formatRow(row: ActorRow): string {
  const state = row.stopReason === undefined ? row.state : `${row.state} (${row.stopReason})`;
  const tools = row.tools.length === 0 ? '' : ` ${row.tools.map((tool) => tool.name).join(', ')}`;
  const metrics = row.kind === 'group' ? '' : ` · turns ${row.turns} · tokens ${row.usage.totalTokens} · ${formatCost(row.usage)}`;
  return `${'  '.repeat(row.depth)}${nameOf(row.path)}  ${state}${tools}${metrics}`;
}
