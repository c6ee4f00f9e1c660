import { agentChart } from './agent-machine.js';
import { ErrorCode, TroupeError } from './errors.js';
import type { AgentContext } from './machine-types.js';
import { endsWithReply, type Message } from './messages.js';

/** The version of {@link AgentSnapshot}'s shape. Bumped on any incompatible change. */
export const SNAPSHOT_SCHEMA_VERSION = 1;

/**
 * A serialisable agent: its statechart state and context, plain JSON. Taken with
 * `agent.snapshot()` and turned back into a running agent with `Agent.restore()`, in this
 * process or another one, now or days later.
 */
export interface AgentSnapshot {
  schemaVersion: typeof SNAPSHOT_SCHEMA_VERSION;
  /** The agent's path when the snapshot was taken. */
  agentPath: string;
  /** The statechart state value, e.g. `"waiting_user"` or `{ "thinking": "retrying" }`. */
  state: string | Record<string, string>;
  context: SnapshotContext;
  /** The `seq` of the last event emitted, so a restored agent goes on counting. */
  seq: number;
}

/**
 * A snapshot's context: the statechart's context with the whole history in `messages`, and
 * without what the machine derives from the history (`historyLength`, `endsWithReply`) or keeps
 * only for its last transition (`outbox`).
 */
export type SnapshotContext = Omit<AgentContext, 'outbox' | 'historyLength' | 'endsWithReply'> & {
  /** The whole history, appended to and never rewritten (compaction included). */
  messages: Message[];
};

/** The statechart's context a snapshot's context and its history restore. */
export function machineContextOf(context: SnapshotContext): AgentContext {
  const { messages, ...rest } = context;
  return { ...rest, historyLength: messages.length, endsWithReply: endsWithReply(messages), outbox: [] };
}

/** Where the last checkpoint of an agent's history ended (kept in memory by whoever checkpoints). */
export interface CheckpointMark {
  readonly length: number;
  readonly last: unknown;
  /** The history array it was taken of: a replaced history (a compaction, `replaceMessages`) is written whole. */
  readonly history?: unknown;
}

/**
 * An incremental checkpoint: the snapshot without its history (`head`, small), and the messages
 * added since the previous checkpoint (`added`, to append at index `from`; `from` is 0 when the
 * whole history must be written: the first checkpoint, or a history that was replaced). Compaction
 * never rewrites the history (the compacted view is in the head), so checkpoints keep appending.
 * Writing one per turn costs what the turn added, not the whole conversation.
 */
export interface AgentCheckpoint {
  head: AgentSnapshot;
  from: number;
  added: Message[];
  /** Pass to the next `checkpoint()` call. */
  mark: CheckpointMark;
}

/**
 * The checkpoint of an agent whose statechart snapshot is `state`/`context` and whose history is
 * `messages`: see `Agent.checkpoint`. The history is appended in place by the agent, so a mark of
 * the same array whose last message is still at its place means only what follows it is new.
 */
export function checkpointOf(
  agentPath: string,
  seq: number,
  state: AgentSnapshot['state'],
  context: AgentContext,
  messages: Message[],
  since?: CheckpointMark,
): AgentCheckpoint {
  const same = since !== undefined && (since.history === undefined || since.history === messages);
  const from = same && since.length <= messages.length && since.length > 0 && messages[since.length - 1] === since.last ? since.length : 0;
  return {
    head: { schemaVersion: SNAPSHOT_SCHEMA_VERSION, agentPath, state, context: headContext(context), seq },
    from,
    added: messages.slice(from),
    mark: { length: messages.length, last: messages.at(-1), history: messages },
  };
}

/**
 * A checkpoint head's context: the machine's context without what a snapshot leaves out, and
 * without its history. Built field by field in the context's order: a rest-and-spread copy made
 * each head an object with a hidden class of its own (~300 bytes more per stored head, and one
 * head is kept per waiting actor).
 */
function headContext(context: AgentContext): SnapshotContext {
  const { steering, followUps, permissions, settings, request, run, pending, sessionId } = context;
  if (context.view === undefined) {
    return sessionId !== undefined
      ? { steering, followUps, permissions, settings, request, run, pending, sessionId, messages: [] }
      : { steering, followUps, permissions, settings, request, run, pending, messages: [] };
  }
  // A compacted run (rarer): the same fields, in the same order, with its view.
  const head: Omit<SnapshotContext, 'messages'> & { messages?: Message[] } = { steering, followUps, permissions, settings, request, run, pending };
  if (sessionId !== undefined) head.sessionId = sessionId;
  head.view = context.view;
  head.messages = [];
  return head as SnapshotContext;
}

/** The full snapshot a stored head and history make. */
export function withHistory(head: AgentSnapshot, messages: Message[]): AgentSnapshot {
  return { ...head, context: { ...head.context, messages } };
}

/** Checks that `value` is an {@link AgentSnapshot} this version can restore; throws a typed error. */
export function parseAgentSnapshot(value: unknown): AgentSnapshot {
  const fail = (why: string): never => {
    throw new TroupeError(ErrorCode.InvalidSnapshot, `invalid agent snapshot: ${why}`);
  };
  if (typeof value !== 'object' || value === null) return fail('not an object');
  const snapshot = value as Partial<AgentSnapshot>;
  if (snapshot.schemaVersion !== SNAPSHOT_SCHEMA_VERSION) {
    return fail(`schemaVersion ${JSON.stringify(snapshot.schemaVersion)} is not supported (expected ${SNAPSHOT_SCHEMA_VERSION})`);
  }
  if (snapshot.state === undefined || agentChart.leafOf(snapshot.state) === undefined) return fail(`unknown state ${JSON.stringify(snapshot.state)}`);
  const context = snapshot.context;
  if (typeof context !== 'object' || context === null || !Array.isArray(context.messages) || typeof context.settings !== 'object') {
    return fail('context is missing messages or settings');
  }
  if (typeof snapshot.agentPath !== 'string' || typeof snapshot.seq !== 'number') return fail('agentPath or seq missing');
  const view = context.view;
  if (
    view !== undefined &&
    (typeof view !== 'object' || view === null || !Array.isArray(view.head) || !(view.from >= 0 && view.from <= context.messages.length))
  ) {
    return fail('context.view does not fit the history');
  }
  return snapshot as AgentSnapshot;
}
