/**
 * Helpers for the table tests of the agent statechart: starting points reached with XState's pure
 * `transition()`, event builders that answer the current effect request, and a one-line summary of
 * each outbox item. Not a test.
 */
import { expect, it } from 'vitest';
import { initialTransition, transition, type SnapshotFrom, type StateValue } from 'xstate';
import { createRunId } from '../../src/ids.js';
import { agentMachine, type AgentMachineInput } from '../../src/agent-machine.js';
import type { AgentMachineEvent, MachineOutput, MachineSettings } from '../../src/machine-types.js';
import type { AssistantMessage, Message, ToolCall, ToolResultMessage } from '../../src/messages.js';
import type { ProviderErrorKind } from '../../src/provider.js';
import { emptyUsage, type Usage } from '../../src/usage.js';
import { expectSameAsXState, runnerAt } from './compiled.js';

/** A snapshot of the agent machine. */
export type Snap = SnapshotFrom<typeof agentMachine>;

/** An event, or one built from the snapshot it is sent to (to answer its current request). */
export type EventOf = AgentMachineEvent | ((s: Snap) => AgentMachineEvent);

/** The clock of every event: fixed, so results do not depend on when the test runs. */
export const T0 = 1_000;

/** Settings of a plain agent: no limit but the turn cap, queues one at a time, compaction on. */
export const SETTINGS: MachineSettings = { limits: { maxTurns: 50 }, steeringMode: 'one-at-a-time', followUpMode: 'one-at-a-time', compacts: true };

/** The machine's initial snapshot (`idle`), from `initialTransition` as XState computes it. */
export function fresh(settings: Partial<MachineSettings> = {}, input: Omit<AgentMachineInput, 'settings'> = {}): Snap {
  const [snapshot, actions] = initialTransition(agentMachine, { settings: { ...SETTINGS, ...settings }, ...input });
  if (actions.length > 0) throw new Error(`the initial transition should start nothing: ${actions.map((a) => a.type).join(', ')}`);
  return snapshot;
}

/** What one transition gives: the next snapshot, its outbox summarised, and XState's actions to execute. */
export interface Step {
  next: Snap;
  outbox: string[];
  actions: string[];
}

/** Sends `event` to `snapshot` with the pure `transition()`: no actor, no effect. */
export function step(snapshot: Snap, event: EventOf): Step {
  const [next, actions] = transition(agentMachine, snapshot, typeof event === 'function' ? event(snapshot) : event);
  // An event a state ignores leaves the snapshot, and so the previous outbox, as it was.
  const outbox = next === snapshot ? [] : next.context.outbox.map(summary);
  return { next, outbox, actions: actions.map((a) => a.type) };
}

/** The snapshot after `events`, in order. */
export function after(snapshot: Snap, ...events: EventOf[]): Snap {
  return events.reduce((s, e) => step(s, e).next, snapshot);
}

/** A short, readable line for an outbox item: its type and the fields that tell items apart. */
export function summary(item: MachineOutput): string {
  switch (item.type) {
    case 'history.append':
      return `append ${item.message.role}`;
    case 'history.replace':
      return `replace ${item.messages.length}`;
    case 'run.end':
      return `run.end ${item.run.end?.stopReason ?? '?'}`;
    case 'cmd.model':
      return `cmd.model #${item.request}${item.attempt > 0 ? ` attempt ${item.attempt}` : ''}${item.delayMs === undefined ? '' : ` after ${item.delayMs}ms`}`;
    case 'cmd.tools':
      return `cmd.tools #${item.request} [${item.calls.map((c) => c.id).join(',')}]${item.skip.length > 0 ? ` skip [${item.skip.join(',')}]` : ''}`;
    case 'cmd.compact':
      return `cmd.compact #${item.request} ${item.reason}`;
    case 'cmd.guard':
    case 'cmd.steer':
      return `${item.type} #${item.request}`;
    case 'cmd.cancel':
      return `cmd.cancel #${item.request} ${item.reason}`;
    case 'state':
      return `state ${item.state}`;
    case 'turn_start':
    case 'turn_end':
      return `${item.type} ${item.turn}`;
    case 'message_start':
    case 'message_end':
      return `${item.type} ${item.role}`;
    case 'retry':
      return `retry ${item.attempt} in ${item.delayMs}ms`;
    case 'permission_request':
    case 'question':
    case 'tool_end':
      return `${item.type} ${item.toolCallId}`;
    case 'input_rejected':
      return `input_rejected ${item.guardrail}`;
    default:
      return item.type;
  }
}

// Event builders. Effect answers carry the snapshot's current request, as a live effect's would.

let clock = T0;
/** The next event time (each event a millisecond after the previous one). */
const now = (): number => ++clock;

export const prompt = (text = 'hi'): AgentMachineEvent => ({ type: 'PROMPT', at: now(), runId: createRunId(T0), messages: [user(text)] });

export const user = (text: string): Message => ({ role: 'user', content: text, timestamp: T0 });

export function reply(
  content: AssistantMessage['content'],
  stopReason: AssistantMessage['stopReason'] = 'stop',
  usage: Usage = emptyUsage(),
): AssistantMessage {
  return { role: 'assistant', content, stopReason, usage, model: 'test', timestamp: T0 };
}

export const call = (id: string, name = 'echo'): ToolCall => ({ type: 'toolCall', id, name, arguments: {} });

export const result = (id: string, text = 'ok', name = 'echo'): ToolResultMessage => ({
  role: 'toolResult',
  toolCallId: id,
  toolName: name,
  content: [{ type: 'text', text }],
  isError: false,
  timestamp: T0,
});

/** The model's reply to the current request. */
export const modelDone =
  (message: AssistantMessage, output?: { ok: true; value: unknown } | { ok: false; problem: string }) =>
  (s: Snap): AgentMachineEvent => ({
    type: 'MODEL.DONE',
    at: now(),
    request: s.context.request,
    message,
    ...(output === undefined ? {} : { output }),
  });

/** The model call failed with `kind`; with `retryInMs` the retry strategy tries again. */
export const modelFailed =
  (kind: ProviderErrorKind, retryInMs?: number) =>
  (s: Snap): AgentMachineEvent => ({
    type: 'MODEL.FAILED',
    at: now(),
    request: s.context.request,
    error: { kind, message: kind, retryable: retryInMs !== undefined },
    message: { ...reply([], 'error'), errorMessage: kind },
    ...(retryInMs === undefined ? {} : { retryInMs }),
  });

export const toolsDone =
  (results: ToolResultMessage[], extra: { suspended?: { callId: string; toolName: string; question: string }[]; complete?: { value: unknown } } = {}) =>
  (s: Snap): AgentMachineEvent => ({
    type: 'TOOLS.DONE',
    at: now(),
    request: s.context.request,
    results,
    suspended: extra.suspended ?? [],
    ...(extra.complete === undefined ? {} : { complete: extra.complete }),
  });

export const toolsAsk =
  (callId: string) =>
  (s: Snap): AgentMachineEvent => ({ type: 'TOOLS.ASK', at: now(), request: s.context.request, callId, results: [] });

export const compacted =
  () =>
  (s: Snap): AgentMachineEvent => ({
    type: 'COMPACTED',
    at: now(),
    request: s.context.request,
    compaction: {
      reason: 'overflow',
      strategy: 'drop',
      strategies: ['drop'],
      tokensBefore: 10,
      tokensAfter: 5,
      removedMessages: 1,
      keptMessages: 1,
      addedMessages: 0,
    },
  });

export const guardDone =
  () =>
  (s: Snap): AgentMachineEvent => ({ type: 'GUARD.DONE', at: now(), request: s.context.request, messages: [user('hi (checked)')] });

export const guardRejected =
  (error?: { code: string; message: string }) =>
  (s: Snap): AgentMachineEvent => ({
    type: 'GUARD.REJECTED',
    at: now(),
    request: s.context.request,
    guardrail: 'deny',
    reason: 'not allowed',
    ...(error === undefined ? {} : { error }),
  });

/** An event of the machine without its time. */
export type Untimed = AgentMachineEvent extends infer E ? (E extends { at: number } ? Omit<E, 'at'> : never) : never;

/** `e`, stamped with the next event time. */
export const event = (e: Untimed): AgentMachineEvent => ({ ...e, at: now() }) as AgentMachineEvent;

/** One row of a transition table: from a snapshot, an event, the state it goes to and what its outbox holds. */
export interface Row {
  /** What the row is about. */
  name: string;
  from: () => Snap;
  event: EventOf;
  to: StateValue;
  /** The outbox, one `summary` line per item, in order. */
  outbox: string[];
  /** XState's own actions, when the row is about them (else: none but delayed events). */
  actions?: string[];
  /** More checks on the next snapshot. */
  check?: (next: Snap, from: Snap) => void;
}

/**
 * One test per row. Besides the row's own expectations, every transition leaves the context it
 * came from as it was (pure, as XState requires), keeps the history's length in step with the
 * appends it asks for, and starts nothing itself (no XState action but a
 * delayed event: effects are the Agent's, commanded through the outbox).
 */
export function table(rows: Row[]): void {
  for (const row of rows) {
    const event = row.event;
    it(`${row.name}: ${show(row.from().value)} + ${typeof event === 'function' ? event(row.from()).type : event.type} → ${show(row.to)}`, () => {
      const from = row.from();
      const before = structuredClone(from.context);
      const sent = typeof row.event === 'function' ? row.event(from) : row.event;
      const { next, outbox, actions } = step(from, sent);
      // The Agent runs the chart compiled (see compiled-chart.ts): it must agree on every row.
      expectSameAsXState(runnerAt(from), sent, { next, actions: transition(agentMachine, from, sent)[1] }, false);
      expect(from.context, 'the transition changed the context it came from').toEqual(before);
      expect(next.value).toEqual(row.to);
      expect(outbox).toEqual(row.outbox);
      if (!outbox.some((line) => line.startsWith('replace '))) {
        expect(next.context.historyLength).toBe(from.context.historyLength + outbox.filter((line) => line.startsWith('append ')).length);
      }
      if (row.actions !== undefined) expect(actions).toEqual(row.actions);
      else expect(actions.filter((type) => type !== 'xstate.raise' && type !== 'xstate.cancel')).toEqual([]);
      row.check?.(next, from);
    });
  }
}

/** A state value as the tests' titles show it: `thinking.streaming`. */
export function show(value: StateValue): string {
  if (typeof value === 'string') return value;
  return Object.entries(value)
    .map(([key, sub]) => (sub === undefined ? key : `${key}.${show(sub)}`))
    .join(',');
}
