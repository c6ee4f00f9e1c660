import { addUsage, emptyUsage, type AgentEvent, type AgentStateName, type Usage } from '@troupe/core';

/** What the CLI shows of one actor. */
export interface ActorRow {
  path: string;
  state: AgentStateName | 'starting';
  turns: number;
  usage: Usage;
  /** Tools running now. */
  tools: string[];
  /** Why it ended, once it has. */
  stopReason?: string;
}

/**
 * The actors of a run as its events describe them: each one's state, turns, running tools,
 * tokens and cost. Fed every event (live or read back from a run's event log); `rows` lists the
 * actors in tree order (parents before children).
 */
export class ActorTree {
  readonly #rows = new Map<string, ActorRow>();

  /** Applies one event; returns whether anything shown changed. */
  apply(event: AgentEvent): boolean {
    const row = this.#row(event.agentPath);
    switch (event.type) {
      case 'state':
        row.state = event.state;
        if (event.state !== 'tool_executing') row.tools = [];
        return true;
      case 'turn_start':
        row.turns = event.turn;
        return true;
      case 'usage':
        row.usage = addUsage(row.usage, event.usage);
        return true;
      case 'tool_start':
        row.tools = [...row.tools, event.toolName];
        return true;
      case 'tool_end': {
        const at = row.tools.indexOf(event.toolName);
        if (at >= 0) row.tools = row.tools.filter((_, i) => i !== at);
        return true;
      }
      case 'agent_end':
        row.stopReason = event.result.stopReason;
        return true;
      default:
        return false;
    }
  }

  /** Makes sure `path` has a row, even before any event of it (a queued actor). */
  track(path: string): void {
    this.#row(path);
  }

  get rows(): ActorRow[] {
    return [...this.#rows.values()].sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
  }

  /** Usage summed over every actor. */
  get usage(): Usage {
    let total = emptyUsage();
    for (const row of this.#rows.values()) total = addUsage(total, row.usage);
    return total;
  }

  #row(path: string): ActorRow {
    let row = this.#rows.get(path);
    if (row === undefined) {
      row = { path, state: 'starting', turns: 0, usage: emptyUsage(), tools: [] };
      this.#rows.set(path, row);
    }
    return row;
  }
}

/** `$0.0123`, or `$?` when some price was unknown. */
export function formatCost(usage: Usage): string {
  return usage.cost.unknown === true ? '$?' : `$${usage.cost.total.toFixed(4)}`;
}

/** One line of the tree: indented by depth, the actor's name, state, tools, turns, tokens, cost. */
export function formatRow(row: ActorRow): string {
  const depth = row.path.split('/').length - 1;
  const name = row.path.split('/').at(-1) ?? row.path;
  const state = row.stopReason === undefined ? row.state : `${row.state} (${row.stopReason})`;
  const tools = row.tools.length === 0 ? '' : ` ${row.tools.join(', ')}`;
  return `${'  '.repeat(depth)}${name}  ${state}${tools} · turns ${row.turns} · tokens ${row.usage.totalTokens} · ${formatCost(row.usage)}`;
}
