import type { CompactionInfo, CompactionReason } from './compaction/compaction-strategy.js';
import type { ContextView } from './compaction/context-view.js';
import type { UnstampedEvent } from './unstamped-event.js';
import type { ErrorInfo } from './errors.js';
import type { LimitHit, RunStopReason } from './agent-result.js';
import type { RunId } from './ids.js';
import type { CancelReason } from './interrupts.js';
import type { AssistantMessage, Message, ToolCall, ToolResultMessage } from './messages.js';
import type { PermissionDecision, RememberedPermissions } from './permissions.js';
import type { ProviderFailure } from './provider.js';
import type { Completion, QueueMode } from './agent-options.js';
import type { Limits } from './limits.js';
import type { JsonOutcome } from './structured-output.js';
import type { Usage } from './usage.js';

/** A tool call that suspended the run with a question. */
export interface SuspendedCall {
  callId: string;
  toolName: string;
  question: string;
  details?: unknown;
}

/** The tool calls of the current turn and what is known of them. */
export interface ToolBatch {
  calls: ToolCall[];
  /** Settled results by call id (never changed in place: a transition copies it). */
  results: Readonly<Record<string, ToolResultMessage>>;
  /** The user's decisions on calls of this batch (never changed in place). */
  decisions: Readonly<Record<string, 'allow' | 'deny'>>;
  /** Calls waiting for the user's answer, in call order (never changed in place). */
  suspended: readonly SuspendedCall[];
  /** A `complete` control returned by a call. */
  complete?: { value: unknown };
}

/** What the agent is waiting for in `waiting_user`. */
export type PendingInput = { kind: 'permission'; callId: string; toolName: string; args: Record<string, unknown> } | ({ kind: 'question' } & SuspendedCall);

/** How a run ended. */
export interface RunEnd {
  stopReason: RunStopReason;
  error?: ErrorInfo;
  limit?: LimitHit;
  value?: unknown;
}

/** The state of the active (or last) run. */
export interface RunState {
  id: RunId;
  startedAt: number;
  /** Index in the history where this run's messages begin. */
  startIndex: number;
  turns: number;
  usage: Usage;
  /** Failed attempts of the current model call. */
  attempt: number;
  retry?: { delayMs: number; until: number; error: ProviderFailure };
  /** Whether the current turn already compacted after an overflow. */
  compacted: boolean;
  /** Whether the current turn already compacted before its call (the context was over the threshold). */
  precompacted?: boolean;
  batch?: ToolBatch;
  /** The assistant message of the current turn. */
  assistant?: AssistantMessage;
  end?: RunEnd;
  /** Whether `agent_end` was emitted. */
  reported?: boolean;
  /** The prompt while the input guardrails check it (it enters the history once they pass). */
  input?: Message[];
  /** Final answers of this run that did not match the output schema. */
  outputAttempts?: number;
  /** Why the last final answer did not match the output schema: the next turn asks again. */
  outputProblem?: string;
}

/** Which queue `clearQueues` empties. */
export type QueueName = 'steering' | 'followUps' | 'all';

/** Settings the machine needs that are plain data (the rest lives in the effects). */
export interface MachineSettings {
  /** Resolved: the default turn cap applied, unlimited ones left out (see `resolveLimits`). */
  limits: Limits;
  steeringMode: QueueMode;
  followUpMode: QueueMode;
  /** What ends a run besides a limit, an abort or an error (absent in older snapshots: `reply`). */
  completion?: Completion;
  /** The pause before each model call of a run after its first, in ms (absent: none). */
  stepDelayMs?: number;
  /** Whether a prompt goes through input guardrails before the first model call (absent: no). */
  guardInput?: boolean;
  /** With an output schema: how many times an unacceptable final answer is asked for again (absent: no schema). */
  outputRetries?: number;
  /** Whether the agent compacts its context (it has compaction steps); without, an overflow ends the run in error. */
  compacts: boolean;
}

/**
 * The statechart's context. Plain JSON: with the history added (and `historyLength`,
 * `endsWithReply` and `outbox` left out), this is what a snapshot stores.
 *
 * The history itself lives outside the machine, with whoever runs it (the `Agent`): the machine
 * asks for appends with `history.*` outputs and keeps only what its transitions decide on, so
 * every transition is a pure function of the context and the event.
 */
export interface AgentContext {
  /** How many messages the history holds (after the outputs of the last transition are applied). */
  historyLength: number;
  /** Whether the last message of the history that the model is sent (see `inModelContext`) is an assistant reply. */
  endsWithReply: boolean;
  /** The conversation's id, the same for every run until `reset()` (absent in snapshots of older versions). */
  sessionId?: string;
  /** What the model is sent instead of the whole history since the last compaction; absent: the whole history. */
  view?: ContextView;
  steering: Message[];
  followUps: Message[];
  permissions: RememberedPermissions;
  settings: MachineSettings;
  /** Id of the latest effect request; results of older requests are stale and ignored. */
  request: number;
  run: RunState | null;
  pending: PendingInput | null;
  /**
   * What the last transition asks of the outside world, in order: events to publish and effect
   * commands. Replaced by every transition that has outputs; never part of a snapshot.
   */
  outbox: MachineOutput[];
}

/** What the tool effect reports when a batch has settled. */
export interface BatchOutcome {
  /** Every settled result (any order; the machine orders them by call). */
  results: ToolResultMessage[];
  suspended: SuspendedCall[];
  complete?: { value: unknown };
}

/** Events the machine accepts. Every event carries `at`, the clock's time when it was sent. */
export type AgentMachineEvent = { at: number } & (
  | { type: 'PROMPT'; runId: RunId; messages: Message[] }
  | { type: 'CONTINUE'; runId: RunId }
  | { type: 'STEER'; message: Message }
  | { type: 'FOLLOW_UP'; message: Message }
  | { type: 'REPLY'; answer: string }
  | { type: 'APPROVE'; callId: string; decision: PermissionDecision }
  /** `results`: calls that finished before the abort but had not been reported yet. */
  | { type: 'ABORT'; results?: ToolResultMessage[] }
  | { type: 'LIMIT'; limit: LimitHit; results?: ToolResultMessage[] }
  | { type: 'RESUME' }
  /** A `beforeTurn` hook stopped the run before the turn's model call. */
  | { type: 'STOP'; reason: string }
  /** Between runs: the history replaced. */
  | { type: 'SET_MESSAGES'; messages: Message[] }
  /** Between runs: back to a fresh agent in a new session. */
  | { type: 'RESET'; sessionId: string }
  | { type: 'CLEAR_QUEUES'; queue: QueueName }
  /** The guardrails passed the prompt (`messages`, maybe rewritten). */
  | { type: 'GUARD.DONE'; request: number; messages: Message[] }
  /** A guardrail rejected the prompt, or threw (`error`). */
  | { type: 'GUARD.REJECTED'; request: number; guardrail: string; reason: string; error?: ErrorInfo }
  /** `output`: with an output schema, the check of a reply without tool calls. */
  | { type: 'MODEL.DONE'; request: number; message: AssistantMessage; output?: JsonOutcome }
  /** `message`: the assistant message that records the failure, kept if it ends the turn. */
  | { type: 'MODEL.FAILED'; request: number; error: ProviderFailure; message: AssistantMessage; retryInMs?: number }
  /** The context is over the compaction threshold: compact before calling the model. */
  | { type: 'MODEL.COMPACT'; request: number }
  /** A compaction ended: `view` is the new view (absent: the context did not change), `usage` what its model calls cost. */
  | { type: 'COMPACTED'; request: number; view?: ContextView; compaction: CompactionInfo; usage?: Usage }
  | ({ type: 'TOOLS.DONE'; request: number } & BatchOutcome)
  /** A call needs the user's approval; `results` are calls settled without running. */
  | { type: 'TOOLS.ASK'; request: number; callId: string; results: ToolResultMessage[] }
  /** A call not safe to repeat finished while its batch goes on: its result is kept now, so a restore knows it ran. */
  | { type: 'TOOLS.RESULT'; request: number; result: ToolResultMessage }
);

/** Requests the machine makes of its effects. */
export type EffectCommand =
  | { type: 'cmd.guard'; request: number; messages: Message[] }
  /** `compacted`: the turn compacted already, so the threshold is not checked again; `delayMs`: wait this long on the clock before calling (the step delay). */
  | { type: 'cmd.model'; request: number; attempt: number; compacted: boolean; delayMs?: number }
  | { type: 'cmd.compact'; request: number; reason: CompactionReason }
  | {
      type: 'cmd.tools';
      request: number;
      calls: ToolCall[];
      skip: string[];
      decisions: Record<string, 'allow' | 'deny'>;
      remembered: RememberedPermissions;
      /** A steering message is already queued: stop the batch after the first call finishes. */
      steered: boolean;
      /** The batch was executing when the agent's snapshot was taken: calls not safe to run twice are not run again. */
      resumed: boolean;
    }
  | { type: 'cmd.steer'; request: number }
  | { type: 'cmd.cancel'; request: number; reason: CancelReason };

/**
 * Changes to the history, which the machine does not hold: whoever runs it applies them, in order,
 * to the history it owns, before it handles the other outputs of the same transition.
 */
export type HistoryOp =
  /** Appends one message (a prompt, a reply, a tool result, a notice). */
  | { type: 'history.append'; message: Message }
  /** Replaces the whole history with a copy of `messages` (between runs: `replaceMessages`, `reset`). */
  | { type: 'history.replace'; messages: readonly Message[] };

/**
 * The run ended: whoever runs the machine publishes `agent_end` with the result it builds from
 * `run` and its history (`buildResult(history, run, at)`), since the result carries the run's messages.
 */
export interface RunEndOutput {
  type: 'run.end';
  run: RunState;
  at: number;
}

/** Everything the machine puts in its outbox: observable events, effect commands, history changes and the run's end. */
export type MachineOutput = UnstampedEvent | EffectCommand | HistoryOp | RunEndOutput;
