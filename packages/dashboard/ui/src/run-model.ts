/**
 * What the run page shows, folded from the run's events in order: the actor tree with each actor's
 * statechart state, turns, tokens and cost, and the timeline's rows (a model reply's streamed
 * deltas fill one row rather than one row each).
 */
import { short } from './format.js';
import type { AgentEvent, FeedEvent } from './types.js';

/** The agent statechart's top-level states, in the order they are drawn. */
export const STATES = ['idle', 'thinking', 'tool_executing', 'waiting_user', 'done', 'aborted', 'error'] as const;

/** One actor of the run. */
export interface ActorView {
  path: string;
  /** The agent's name: the last path segment without its `#n`. */
  agent: string;
  parent: string | undefined;
  depth: number;
  state: string;
  turns: number;
  tokens: number;
  cost: number;
  stopReason?: string;
}

/** One row of the timeline. */
export interface TimelineRow {
  seq: number;
  path: string;
  type: string;
  text: string;
  tone: 'plain' | 'model' | 'tool' | 'wait' | 'error' | 'end';
}

/** The folded state of a run's events; mutated in place as events arrive. */
export class RunModel {
  readonly actors = new Map<string, ActorView>();
  readonly rows: TimelineRow[] = [];
  /** The seq of the last event folded in (-1: none). */
  last = -1;
  /** Bumped on every change, so throttled views know whether to draw again. */
  version = 0;
  readonly #openMessage = new Map<string, TimelineRow>();

  /** Folds in one event; an event already folded in (a resent seq) is ignored. */
  apply({ seq, event }: FeedEvent): void {
    if (seq <= this.last) return;
    this.last = seq;
    this.version += 1;
    const actor = this.#actor(event.agentPath);
    switch (event.type) {
      case 'agent_start':
        actor.state = 'idle';
        return;
      case 'state':
        actor.state = event.state;
        return;
      case 'turn_start':
        actor.turns = Math.max(actor.turns, event.turn);
        return;
      case 'usage':
        actor.tokens += event.usage.totalTokens;
        actor.cost += event.usage.cost.total;
        return;
      case 'message_start':
        if (event.role === 'assistant') {
          const open: TimelineRow = { seq, path: event.agentPath, type: 'model', text: '', tone: 'model' };
          this.#openMessage.set(event.agentPath, open);
          this.rows.push(open);
        }
        return;
      case 'message_update': {
        const open = this.#openMessage.get(event.agentPath);
        const { delta } = event;
        if (open !== undefined && (delta.type === 'text_delta' || delta.type === 'thinking_delta')) open.text += delta.delta;
        return;
      }
      case 'message_end': {
        const open = this.#openMessage.get(event.agentPath);
        this.#openMessage.delete(event.agentPath);
        if (open !== undefined && event.failed !== undefined) open.text += `  [failed: ${event.failed.message}; retried]`;
        if (open !== undefined && open.text === '') open.text = '(tool calls only)';
        return;
      }
      default: {
        const described = this.#describe(event, actor);
        if (described !== undefined) this.rows.push({ seq, path: event.agentPath, ...described });
      }
    }
  }

  /** The row an event other than state, usage and message streaming gets, if any. */
  #describe(event: AgentEvent, actor: ActorView): Pick<TimelineRow, 'type' | 'text' | 'tone'> | undefined {
    const row = (type: string, text: string, tone: TimelineRow['tone']): Pick<TimelineRow, 'type' | 'text' | 'tone'> => ({ type, text, tone });
    switch (event.type) {
      case 'tool_start':
        return row('tool', `${event.toolName} ${short(event.args)}`, 'tool');
      case 'tool_update':
        return event.progress === undefined ? undefined : row('progress', `${event.toolName}: ${event.progress}`, 'plain');
      case 'tool_end':
        return row(
          event.result.isError ? 'tool error' : 'result',
          `${event.toolName} → ${short(event.result.content.map((c) => (c.type === 'text' ? c.text : `[${c.type}]`)).join(' '))}`,
          event.result.isError ? 'error' : 'tool',
        );
      case 'permission_request':
        return row('approval', `${event.toolName} ${short(event.args)} waits for approval (${event.toolCallId})`, 'wait');
      case 'question':
        return row('question', event.question, 'wait');
      case 'retry':
        return row('retry', `attempt ${event.attempt} in ${event.delayMs} ms: ${event.error.message}`, 'error');
      case 'compaction':
        return row('compaction', 'context compacted', 'plain');
      case 'error':
        return row('error', `${event.error.code}: ${event.error.message}`, 'error');
      case 'input_rejected':
        return row('rejected', `${event.guardrail}: ${event.reason}`, 'error');
      case 'agent_end':
        actor.stopReason = event.result.stopReason;
        return row('end', `${event.result.stopReason}${event.result.text === '' ? '' : `: ${short(event.result.text, 400)}`}`, 'end');
      default:
        return undefined;
    }
  }

  #actor(path: string): ActorView {
    let actor = this.actors.get(path);
    if (actor === undefined) {
      const segments = path.split('/');
      const parent = segments.length > 1 ? segments.slice(0, -1).join('/') : undefined;
      actor = { path, agent: (segments.at(-1) ?? path).replace(/#\d+$/, ''), parent, depth: segments.length - 1, state: 'idle', turns: 0, tokens: 0, cost: 0 };
      this.actors.set(path, actor);
    }
    return actor;
  }

  /** The actors in tree order: each parent followed by its children, in the order they appeared. */
  tree(): ActorView[] {
    const all = [...this.actors.values()];
    const out: ActorView[] = [];
    const visit = (parent: string | undefined): void => {
      for (const actor of all) {
        if (actor.parent !== parent) continue;
        out.push(actor);
        visit(actor.path);
      }
    };
    visit(undefined);
    // An actor whose parent has sent no event yet still shows.
    for (const actor of all) if (!out.includes(actor)) out.push(actor);
    return out;
  }
}
