import { Observable, Subject } from 'rxjs';
import { createActor, type Actor } from 'xstate';
import { agentMachine, initialAgentContext } from './agent-machine.js';
import type { AgentOptions, HookContext } from './agent-options.js';
import { machineSettings, providerRequest } from './agent-settings.js';
import type { AgentResult, AgentStateName } from './agent-result.js';
import { parseAgentSnapshot, SNAPSHOT_SCHEMA_VERSION, withHistory, type AgentCheckpoint, type AgentSnapshot, type CheckpointMark } from './agent-snapshot.js';
import { systemClock, type Clock, type TimerHandle } from './clock.js';
import { compactionSettings } from './compaction/compaction-cascade.js';
import { viewMessages } from './compaction/context-view.js';
import { AgentStateError, ErrorCode, TroupeError } from './errors.js';
import type { AgentEvent, AgentEventPayload } from './events.js';
import { createRunId, parseAgentPath, type AgentPath, type RunId } from './ids.js';
import type { AgentContext, AgentMachineEvent, MachineOutput, PendingInput } from './machine-types.js';
import { HistoryViews } from './history-view.js';
import { inModelContext, type Message, type UserContent } from './messages.js';
import { ModelEffect } from './model-effect.js';
import { DEFAULT_PERMISSIONS, PERMISSION_DECISIONS, type PermissionDecision } from './permissions.js';
import { exponentialBackoff } from './retry-strategy.js';
import { sharedSchemaValidator } from './schema-validator.js';
import type { StreamingMessage } from './streaming-message.js';
import { ToolEffect } from './tool-effect.js';
import { ToolSet } from './tool-set.js';

/** What `prompt` accepts: text, text with images, or whole messages. */
export type PromptInput = string | UserContent[] | Message[];

/** Options of one run. */
export interface RunOptions {
  /** The id the run's events carry. Default: a new id. Sub-agents share their parent run's id. */
  runId?: RunId;
}

const ACTIVE: ReadonlySet<AgentStateName> = new Set(['thinking', 'tool_executing', 'waiting_user']);

interface PendingRun {
  promise: Promise<AgentResult>;
  resolve(result: AgentResult): void;
}

function pendingRun(): PendingRun {
  let resolve!: (result: AgentResult) => void;
  const promise = new Promise<AgentResult>((r) => (resolve = r));
  return { promise, resolve };
}

/**
 * An agent: the statechart actor plus the effects that call its model and tools.
 *
 * Runs are started with `prompt` or `continue` and end with `agent_end`; `result` is the
 * outcome of the current (or last) run and never rejects — failures are in `stopReason`/`error`.
 * `events$` is hot; with `keepRunEvents: true` it first replays the current run's events to a
 * late subscriber, then follows live.
 */
export class Agent {
  readonly name: string;
  readonly path: AgentPath;
  readonly #options: AgentOptions;
  readonly #clock: Clock;
  readonly #actor: Actor<typeof agentMachine>;
  readonly #model: ModelEffect;
  readonly #tools: ToolEffect;
  readonly #maxWallTimeMs: number | undefined;
  readonly #subject = new Subject<AgentEvent>();
  readonly #keepEvents: boolean;
  #runEvents: AgentEvent[] = [];
  #seq: number;
  #runId: RunId;
  #run: PendingRun | undefined;
  #lastResult: Promise<AgentResult> | undefined;
  #wallTimer: TimerHandle | undefined;
  #handled: MachineOutput[] | undefined;

  /** The run's events, live (and, with `keepRunEvents`, the current run's earlier ones first). */
  readonly events$: Observable<AgentEvent>;

  constructor(options: AgentOptions, restoreFrom?: AgentSnapshot) {
    this.#options = options;
    this.name = options.name ?? 'agent';
    this.path = parseAgentPath(restoreFrom?.agentPath ?? options.path ?? this.name);
    this.#clock = options.clock ?? systemClock;
    this.#keepEvents = options.keepRunEvents ?? false;
    this.#seq = restoreFrom?.seq ?? 0;
    this.#runId = restoreFrom?.context.run?.id ?? ('' as RunId);
    this.events$ = new Observable<AgentEvent>((subscriber) => {
      for (const event of this.#runEvents) subscriber.next(event);
      return this.#subject.subscribe(subscriber);
    });

    const validator = options.validator ?? sharedSchemaValidator();
    const compaction = compactionSettings(options.compaction);
    const tools = new ToolSet(options.tools ?? [], validator, (message) => this.#publish({ type: 'error', error: { code: ErrorCode.InvalidTool, message } }));
    const now = (): number => this.#clock.now();
    const emit = (payload: AgentEventPayload): void => this.#publish(payload);
    const send = (event: AgentMachineEvent): void => this.#actor.send(event);
    this.#model = new ModelEffect({
      provider: options.provider,
      request: providerRequest(options),
      tools,
      retry: options.retry ?? exponentialBackoff(),
      compaction,
      hooks: options.hooks ?? {},
      ...(options.contextWindow === undefined ? {} : { contextWindow: options.contextWindow }),
      clock: this.#clock,
      now, emit, send,
    });
    this.#tools = new ToolEffect({
      tools,
      validator,
      permissions: options.permissions ?? DEFAULT_PERMISSIONS,
      execution: options.toolExecution ?? { mode: 'parallel' },
      hooks: options.hooks ?? {},
      agentPath: this.path,
      runId: () => this.#runId,
      now, emit, send,
    });

    const settings = machineSettings(options, compaction.strategies.length > 0);
    this.#maxWallTimeMs = settings.limits.maxWallTimeMs;
    // Both paths start from a resolved state: half the cost of XState computing the initial one.
    // The options of a restoring process win over the ones stored with the snapshot.
    const snapshot =
      restoreFrom === undefined
        ? agentMachine.resolveState({ value: 'idle', context: initialAgentContext({ settings }) })
        : agentMachine.resolveState({ value: restoreFrom.state, context: { ...restoreFrom.context, settings, outbox: [] } });
    this.#actor = createActor(agentMachine, { snapshot, input: { settings }, clock: this.#clock });
    this.#actor.subscribe({ next: (snapshot) => this.#onTransition(snapshot.context.outbox), error: (error) => this.#onCrash(error) });
    this.#actor.start();
    if (restoreFrom !== undefined && ACTIVE.has(this.state)) {
      this.#beginRun();
      // Effects in flight when the snapshot was taken are re-issued; pending delays re-armed.
      this.#send({ type: 'RESUME' });
    }
  }

  /** Restores an agent from a snapshot (see {@link AgentSnapshot}) with this process's options. */
  static restore(snapshot: unknown, options: AgentOptions): Agent {
    return new Agent(options, parseAgentSnapshot(snapshot));
  }

  /** The top-level statechart state. */
  get state(): AgentStateName {
    const value = this.#actor.getSnapshot().value;
    return (typeof value === 'string' ? value : Object.keys(value)[0]) as AgentStateName;
  }

  /** The full statechart state value (`{ thinking: 'retrying' }`). */
  get stateValue(): string | Record<string, unknown> {
    return this.#actor.getSnapshot().value as string | Record<string, unknown>;
  }

  /** The whole history. Read-only: the agent appends to it (compaction never removes from it). */
  get messages(): readonly Message[] {
    return this.#context.messages;
  }

  /**
   * The assistant message being streamed: its content so far (live: it grows as deltas arrive;
   * do not change it). Undefined when no reply streams.
   */
  get streamingMessage(): Readonly<StreamingMessage> | undefined {
    return this.#model.streaming;
  }

  /** What the model is sent from the history: all of it, or its compacted view after a compaction. */
  get contextMessages(): readonly Message[] {
    const { messages, view } = this.#context;
    return viewMessages(messages, view);
  }

  /** Whether a run is active (thinking, executing tools, or waiting for the user). */
  get isRunning(): boolean {
    return ACTIVE.has(this.state);
  }

  /** What the agent waits for in `waiting_user`: a permission decision or an answer. */
  get pending(): Readonly<PendingInput> | undefined {
    return this.#context.pending ?? undefined;
  }

  /** The current run's id (empty before the first run). */
  get runId(): RunId {
    return this.#runId;
  }

  /** The outcome of the current run, or the last one. Rejects only if no run was ever started. */
  get result(): Promise<AgentResult> {
    return this.#run?.promise ?? this.#lastResult ?? Promise.reject(new AgentStateError(ErrorCode.NoMessages, 'the agent has not run yet'));
  }

  /** Starts a run with `input` as the user's message(s). Throws if a run is active. */
  prompt(input: PromptInput, options: RunOptions = {}): Promise<AgentResult> {
    this.#assertIdle('prompt');
    const at = this.#clock.now();
    const messages: Message[] =
      typeof input === 'string' || isContentList(input) ? [{ role: 'user', content: input, timestamp: at }] : input;
    this.#runId = options.runId ?? createRunId(at);
    const run = this.#beginRun();
    this.#send({ type: 'PROMPT', runId: this.#runId, messages });
    return run.promise;
  }

  /** Goes on from the current history (after an error, an abort, or with queued messages). */
  continue(options: RunOptions = {}): Promise<AgentResult> {
    this.#assertIdle('continue');
    const context = this.#context;
    // What the model would be sent decides: a failure or a limit's notice at the end is not part of it.
    const last = context.messages.findLast(inModelContext);
    if (last === undefined) throw new AgentStateError(ErrorCode.NoMessages, 'cannot continue: the history is empty');
    if (last.role === 'assistant' && context.steering.length === 0 && context.followUps.length === 0) {
      throw new AgentStateError(ErrorCode.InvalidContinue, 'cannot continue from an assistant message: prompt() instead, or queue a follow-up');
    }
    this.#runId = options.runId ?? createRunId(this.#clock.now());
    const run = this.#beginRun();
    this.#send({ type: 'CONTINUE', runId: this.#runId });
    return run.promise;
  }

  /** Queues a message that interrupts the current tool calls and enters before the next model call. */
  steer(message: string | Message): void {
    this.#send({ type: 'STEER', message: this.#asMessage(message) });
  }

  /** Queues a message that makes the run go on when it would otherwise stop. */
  followUp(message: string | Message): void {
    this.#send({ type: 'FOLLOW_UP', message: this.#asMessage(message) });
  }

  /** Answers the question the agent is waiting on. */
  reply(answer: string): void {
    const pending = this.#context.pending;
    if (this.state !== 'waiting_user' || pending?.kind !== 'question') {
      throw new AgentStateError(ErrorCode.NotWaiting, 'the agent is not waiting for an answer');
    }
    this.#send({ type: 'REPLY', answer });
  }

  /** Decides the permission request for `callId`. */
  approve(callId: string, decision: PermissionDecision): void {
    if (!PERMISSION_DECISIONS.includes(decision)) {
      throw new AgentStateError(ErrorCode.NotWaiting, `unknown decision ${JSON.stringify(decision)}: expected ${PERMISSION_DECISIONS.join(', ')}`);
    }
    const pending = this.#context.pending;
    if (this.state !== 'waiting_user' || pending?.kind !== 'permission' || pending.callId !== callId) {
      const waiting = pending?.kind === 'permission' ? ` (it is waiting for ${pending.callId})` : '';
      throw new AgentStateError(ErrorCode.NotWaiting, `the agent is not waiting for a decision on ${callId}${waiting}`);
    }
    this.#send({ type: 'APPROVE', callId, decision });
  }

  /** Aborts the current run: the model request, every running tool, and pending calls. */
  abort(): void {
    this.#send({ type: 'ABORT', results: this.#tools.settled() });
  }

  /** A JSON snapshot of the agent (a detached copy), restorable with {@link Agent.restore}. */
  snapshot(): AgentSnapshot {
    const { head, added } = this.checkpoint();
    return JSON.parse(JSON.stringify(withHistory(head, added))) as AgentSnapshot;
  }

  /**
   * An incremental snapshot: the state without the history, plus the messages added since the
   * checkpoint that returned `since` (all of them without one, or when the history was replaced).
   * It shares structure with the agent (the machine never mutates what it has stored): treat it
   * as read-only, and serialise it to keep it.
   */
  checkpoint(since?: CheckpointMark): AgentCheckpoint {
    const { value, context } = this.#actor.getSnapshot();
    const { outbox: _outbox, messages, ...rest } = context;
    const from = since !== undefined && since.length <= messages.length && since.length > 0 && messages[since.length - 1] === since.last ? since.length : 0;
    return {
      head: { schemaVersion: SNAPSHOT_SCHEMA_VERSION, agentPath: this.path, state: value as AgentSnapshot['state'], context: { ...rest, messages: [] }, seq: this.#seq },
      from,
      added: messages.slice(from),
      mark: { length: messages.length, last: messages.at(-1) },
    };
  }

  /** Stops the actor and completes `events$`. The agent cannot be used afterwards. */
  dispose(): void {
    this.#clearWallTimer();
    this.#actor.stop();
    this.#subject.complete();
  }

  get #context(): AgentContext {
    return this.#actor.getSnapshot().context;
  }

  #send(event: AgentMachineEvent extends infer E ? (E extends { at: number } ? Omit<E, 'at'> : never) : never): void {
    this.#actor.send({ ...event, at: this.#clock.now() } as AgentMachineEvent);
  }

  #assertIdle(call: string): void {
    if (this.isRunning) {
      throw new AgentStateError(ErrorCode.AlreadyRunning, `cannot ${call}() while a run is active (state ${this.state}): use steer() or followUp()`);
    }
  }

  #asMessage(message: string | Message): Message {
    return typeof message === 'string' ? { role: 'user', content: message, timestamp: this.#clock.now() } : message;
  }

  #beginRun(): PendingRun {
    const run = pendingRun();
    this.#run = run;
    this.#lastResult = run.promise;
    this.#runEvents = [];
    const maxWall = this.#maxWallTimeMs;
    const startedAt = this.#context.run?.startedAt;
    if (maxWall !== undefined) {
      const elapsed = startedAt === undefined || !this.isRunning ? 0 : this.#clock.now() - startedAt;
      this.#wallTimer = this.#clock.setTimeout(() => {
        this.#wallTimer = undefined;
        if (this.isRunning) this.#send({ type: 'LIMIT', limit: { kind: 'maxWallTimeMs', limit: maxWall, actual: maxWall }, results: this.#tools.settled() });
      }, Math.max(0, maxWall - elapsed));
    }
    return run;
  }

  #clearWallTimer(): void {
    if (this.#wallTimer === undefined) return;
    this.#clock.clearTimeout(this.#wallTimer);
    this.#wallTimer = undefined;
  }

  /** Carries out what the last transition put in the outbox (each outbox once). */
  #onTransition(outbox: MachineOutput[]): void {
    if (outbox === this.#handled) return;
    this.#handled = outbox;
    for (const item of outbox) {
      switch (item.type) {
        case 'cmd.model': {
          const { messages, view } = this.#context;
          this.#model.call(item.request, item.attempt, { history: messages, view }, item.compacted, item.delayMs);
          break;
        }
        case 'cmd.compact': {
          const { messages, view } = this.#context;
          this.#model.compact(item.request, item.reason, { history: messages, view });
          break;
        }
        case 'cmd.tools':
          this.#tools.run(item);
          break;
        case 'cmd.steer':
          this.#tools.steer(item.request);
          break;
        case 'cmd.cancel':
          this.#model.cancel(item.request);
          this.#tools.cancel(item.request, item.reason);
          break;
        default:
          this.#publish(item);
      }
    }
  }

  #publish(payload: AgentEventPayload): void {
    const event = payload as AgentEvent;
    event.runId = this.#runId;
    event.agentPath = this.path;
    event.seq = ++this.#seq;
    event.ts = this.#clock.now();
    if (this.#keepEvents) this.#runEvents.push(event);
    this.#subject.next(event);
    switch (event.type) {
      case 'turn_start':
      case 'turn_end':
        this.#turnHook(event);
        break;
      case 'agent_end':
        this.#clearWallTimer();
        this.#run?.resolve(event.result);
        this.#run = undefined;
        break;
    }
  }

  #turnHook(event: Extract<AgentEvent, { type: 'turn_start' | 'turn_end' }>): void {
    const hooks = this.#options.hooks;
    const base: HookContext = { turn: event.turn, messages: this.#context.messages };
    try {
      if (event.type === 'turn_start') hooks?.beforeTurn?.(base);
      else if (event.message !== undefined) hooks?.afterTurn?.({ ...base, message: event.message, toolResults: event.toolResults });
    } catch (error) {
      this.#publish({ type: 'error', error: { code: ErrorCode.HookFailed, message: `${event.type === 'turn_start' ? 'beforeTurn' : 'afterTurn'} hook failed: ${String(error)}` } });
    }
  }

  #onCrash(error: unknown): void {
    // Only a bug in the machine gets here; still end the run visibly rather than hang.
    const message = error instanceof Error ? error.message : String(error);
    this.#publish({ type: 'error', error: { code: ErrorCode.Internal, message } });
    const run = this.#run;
    if (run === undefined) return;
    this.#run = undefined;
    const usage = this.#context.run?.usage;
    run.resolve({
      runId: this.#runId, stopReason: 'error', messages: [], text: '', turns: this.#context.run?.turns ?? 0,
      usage: usage ?? { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, totalTokens: 0, cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, total: 0 } },
      durationMs: 0, error: { code: ErrorCode.Internal, message },
    });
  }
}

function isContentList(input: UserContent[] | Message[]): input is UserContent[] {
  const first = input[0];
  return first === undefined || 'type' in first;
}
