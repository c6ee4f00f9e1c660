import type { Observable } from 'rxjs';
import type { SnapshotFrom } from 'xstate';
import { AgentEffects } from './agent-effects.js';
import { HookRunner, NO_HOOKS } from './agent-hooks.js';
import { NO_HOOK_RUNNER } from './no-hook-runner.js';
import { AgentLink, connectAgentInternals } from './agent-link.js';
import { agentChart, agentMachine, initialAgentContext } from './agent-machine.js';
import { ChartRunner } from './chart-runner.js';
import type { ChartLeaf } from './compiled-chart.js';
import type { AgentOptions } from './agent-options.js';
import { machineSettings, type AgentChanges, type ModelSettings } from './agent-settings.js';
import type { AgentResult, AgentStateName } from './agent-result.js';
import { checkpointOf, machineContextOf, parseAgentSnapshot, withHistory } from './agent-snapshot.js';
import type { AgentCheckpoint, AgentSnapshot, CheckpointMark } from './agent-snapshot.js';
import { systemClock, type Clock } from './clock.js';
import { viewMessages } from './compaction/context-view.js';
import { AgentStateError, ErrorCode } from './errors.js';
import { EventStream } from './event-stream.js';
import type { AgentEvent } from './events.js';
import { createRunId, createSessionId, parseAgentPath, type AgentPath, type RunId } from './ids.js';
import { applyHistoryOps, isCommand, isHistoryOp } from './machine-outputs.js';
import type { AgentContext, AgentMachineEvent, MachineOutput, PendingInput, QueueName } from './machine-types.js';
import { inModelContext, type Message } from './messages.js';
import type { PermissionDecision } from './permissions.js';
import { assertAwaitsAnswer, assertAwaitsDecision } from './awaited-input.js';
import { promptMessages, type PromptInput, type RunOptions } from './prompt-input.js';
import { buildResult, crashedResult } from './run-result.js';
import { withFields } from './with-fields.js';
import { RunTracker } from './run-tracker.js';
import type { StreamingMessage } from './streaming-message.js';
import { NO_PATH, NO_RUN, NO_TS, type UnstampedEvent } from './unstamped-event.js';

const ACTIVE: ReadonlySet<AgentStateName> = new Set(['thinking', 'tool_executing', 'waiting_user']);

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
  readonly #clock: Clock;
  /** The statechart's actor: the agent chart run from its compiled tables (see `ChartRunner`). */
  readonly #actor: ChartRunner;
  readonly #effects: AgentEffects;
  readonly #hooks: HookRunner;
  readonly #runs: RunTracker;
  readonly #maxWallTimeMs: number | undefined;
  readonly #events: EventStream;
  #runId: RunId;
  #handled: MachineOutput[] | undefined;
  /** The whole history (see `applyHistoryOps`): the machine keeps only its length and asks for changes in its outbox. */
  #history: Message[];

  constructor(options: AgentOptions, restoreFrom?: AgentSnapshot) {
    this.name = options.name ?? 'agent';
    this.path = parseAgentPath(restoreFrom?.agentPath ?? options.path ?? this.name);
    this.#clock = options.clock ?? systemClock;
    this.#events = new EventStream({ keepRunEvents: options.keepRunEvents ?? false, seq: restoreFrom?.seq ?? 0, listener: options.onEvent });
    this.#runId = restoreFrom?.context.run?.id ?? ('' as RunId);
    this.#history = restoreFrom?.context.messages ?? [];

    this.#runs = new RunTracker(this.#clock);
    const link = new AgentLink(this, this.path, this.#clock);
    const hooks = options.hooks ?? NO_HOOKS;
    this.#hooks =
      hooks === NO_HOOKS
        ? NO_HOOK_RUNNER
        : new HookRunner(
            hooks,
            (error) => link.emit({ type: 'error', error, runId: NO_RUN, agentPath: NO_PATH, seq: 0, ts: NO_TS }),
            () => ({ runId: this.#runId, sessionId: this.sessionId, messages: this.#history }),
          );
    this.#effects = new AgentEffects(options, link, this.#clock);

    const settings = machineSettings(options, this.#effects.compacts);
    this.#maxWallTimeMs = settings.limits.maxWallTimeMs;
    // The options of a restoring process win over the ones stored with the snapshot.
    // A restored agent goes on in its snapshot's session (snapshots of older versions have none).
    const sessionId = restoreFrom?.context.sessionId ?? options.sessionId ?? createSessionId(this.#clock.now());
    const context =
      restoreFrom === undefined ? initialAgentContext({ settings, sessionId }) : machineContextOf({ ...restoreFrom.context, settings, sessionId });
    // `parseAgentSnapshot` has checked the state is one of the chart's.
    this.#actor = new ChartRunner(agentChart.leafOf(restoreFrom?.state ?? 'idle') as ChartLeaf, context, this.#clock, link);
    if (restoreFrom !== undefined && ACTIVE.has(this.state)) {
      this.#beginRun();
      // Effects in flight when the snapshot was taken are re-issued; pending delays re-armed.
      this.#send({ type: 'RESUME' });
    }
  }

  static {
    connectAgentInternals<Agent>({
      publish: (agent, payload) => agent.#publish(payload),
      send: (agent, event) => agent.#actor.send(event),
      transitioned: (agent, outbox) => agent.#onTransition(outbox),
      crashed: (agent, error) => agent.#onCrash(error),
      runId: (agent) => agent.#runId,
      sessionId: (agent) => agent.sessionId,
    });
  }

  /** Restores an agent from a snapshot (see {@link AgentSnapshot}) with this process's options. */
  static restore(snapshot: unknown, options: AgentOptions): Agent {
    return new Agent(options, parseAgentSnapshot(snapshot));
  }

  /** The run's events, live (and, with `keepRunEvents`, the current run's earlier ones first). */
  get events$(): Observable<AgentEvent> {
    return this.#events.events$;
  }

  /** The top-level statechart state. */
  get state(): AgentStateName {
    const value = this.#actor.value;
    return (typeof value === 'string' ? value : Object.keys(value)[0]) as AgentStateName;
  }

  /** The full statechart state value (`{ thinking: 'retrying' }`). */
  get stateValue(): string | Record<string, unknown> {
    return this.#actor.value as string | Record<string, unknown>;
  }

  /** The state as an XState snapshot of {@link agentMachine}, for tools that read them (`matches`, `can`). Built on each read. */
  get machineSnapshot(): SnapshotFrom<typeof agentMachine> {
    return agentMachine.resolveState({ value: this.#actor.value, context: this.#actor.context });
  }

  /** The whole history. Read-only: the agent appends to it (compaction never removes from it). */
  get messages(): readonly Message[] {
    return this.#history;
  }

  /** What the model is sent from the history: all of it, or its compacted view after a compaction. */
  get contextMessages(): readonly Message[] {
    return viewMessages(this.#history, this.#context.view);
  }

  /**
   * The assistant message being streamed: its content so far (live: it grows as deltas arrive;
   * do not change it). Undefined when no reply streams.
   */
  get streamingMessage(): Readonly<StreamingMessage> | undefined {
    return this.#effects.streaming;
  }

  /** Whether a run is active (thinking, executing tools, or waiting for the user). */
  get isRunning(): boolean {
    return ACTIVE.has(this.state);
  }

  /** What the agent waits for in `waiting_user`: a permission decision or an answer. */
  get pending(): Readonly<PendingInput> | undefined {
    return this.#context.pending ?? undefined;
  }

  /** The conversation's id: the same for every run until `reset()`; kept by snapshots. */
  get sessionId(): string {
    return this.#context.sessionId ?? '';
  }

  /** How the model is called now (the options, as `configure` changed them). */
  get modelSettings(): Readonly<ModelSettings> {
    return this.#effects.settings;
  }

  /** The messages queued by `steer` and `followUp` and not delivered yet (readable at any time). */
  get queued(): { readonly steering: readonly Message[]; readonly followUps: readonly Message[] } {
    const { steering, followUps } = this.#context;
    return { steering, followUps };
  }

  /** Whether any steering or follow-up message waits to be delivered. */
  get hasQueuedMessages(): boolean {
    const { steering, followUps } = this.#context;
    return steering.length > 0 || followUps.length > 0;
  }

  /** The current run's id (empty before the first run). */
  get runId(): RunId {
    return this.#runId;
  }

  /** The outcome of the current run, or the last one. Rejects only if no run was ever started. */
  get result(): Promise<AgentResult> {
    return this.#runs.result ?? Promise.reject(new AgentStateError(ErrorCode.NoMessages, 'the agent has not run yet'));
  }

  /** Starts a run with `input` as the user's message(s). Throws if a run is active. */
  prompt(input: PromptInput, options: RunOptions = {}): Promise<AgentResult> {
    this.#assertIdle('prompt');
    const at = this.#clock.now();
    const messages = promptMessages(input, at);
    return this.#start({ type: 'PROMPT', runId: options.runId ?? createRunId(at), messages });
  }

  /** Goes on from the current history (after an error, an abort, or with queued messages). */
  continue(options: RunOptions = {}): Promise<AgentResult> {
    this.#assertIdle('continue');
    const context = this.#context;
    // What the model would be sent decides: a failure or a limit's notice at the end is not part of it.
    const last = this.#history.findLast(inModelContext);
    if (last === undefined) throw new AgentStateError(ErrorCode.NoMessages, 'cannot continue: the history is empty');
    if (last.role === 'assistant' && context.steering.length === 0 && context.followUps.length === 0) {
      throw new AgentStateError(ErrorCode.InvalidContinue, 'cannot continue from an assistant message: prompt() instead, or queue a follow-up');
    }
    return this.#start({ type: 'CONTINUE', runId: options.runId ?? createRunId(this.#clock.now()) });
  }

  /** Queues a message that interrupts the current tool calls and enters before the next model call. */
  steer(message: string | Message): void {
    this.#send({ type: 'STEER', message: this.#asMessage(message) });
  }

  /** Queues a message that makes the run go on when it would otherwise stop. */
  followUp(message: string | Message): void {
    this.#send({ type: 'FOLLOW_UP', message: this.#asMessage(message) });
  }

  /**
   * Drops queued messages not delivered yet: `steering`, `followUps`, or `all` (default). Allowed
   * during a run: a batch already told of a steering message still stops at its next finished call.
   */
  clearQueues(queue: QueueName = 'all'): void {
    this.#send({ type: 'CLEAR_QUEUES', queue });
  }

  /**
   * Changes how the next runs call the model (system prompt, model, provider, thinking level,
   * sampling, output limit) and which tools they have. Between runs only: throws
   * `AgentStateError` (`already_running`) during a run, and the tool set's `invalid_tool` error
   * (changing nothing) for a bad tool list. A restored agent takes its process's options instead.
   */
  configure(changes: AgentChanges): void {
    this.#assertIdle('configure');
    this.#effects.configure(changes);
  }

  /** Replaces the history (a copy of `messages` is kept). Between runs only (`already_running` otherwise). */
  replaceMessages(messages: readonly Message[]): void {
    this.#assertIdle('replaceMessages');
    this.#send({ type: 'SET_MESSAGES', messages: [...messages] });
  }

  /** Empties the history. Between runs only (`already_running` otherwise). */
  clearMessages(): void {
    this.#assertIdle('clearMessages');
    this.#send({ type: 'SET_MESSAGES', messages: [] });
  }

  /**
   * Back to the agent its options make, in a new session (`options.sessionId`, or a new id): no
   * history, no queued messages, no remembered permission decisions, the model settings and tools
   * of the options. Between runs only (`already_running` otherwise).
   */
  reset(options: { sessionId?: string } = {}): void {
    this.#assertIdle('reset');
    this.#effects.reset();
    this.#send({ type: 'RESET', sessionId: options.sessionId ?? createSessionId(this.#clock.now()) });
    this.#runId = '' as RunId;
    this.#events.newRun();
    this.#runs.forget();
  }

  /** Answers the question the agent is waiting on. */
  reply(answer: string): void {
    assertAwaitsAnswer(this.state, this.#context.pending);
    this.#send({ type: 'REPLY', answer });
  }

  /** Decides the permission request for `callId`. */
  approve(callId: string, decision: PermissionDecision): void {
    assertAwaitsDecision(this.state, this.#context.pending, callId, decision);
    this.#send({ type: 'APPROVE', callId, decision });
  }

  /** Aborts the current run: the model request, every running tool, and pending calls. */
  abort(): void {
    this.#send({ type: 'ABORT', results: this.#effects.settled() });
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
    const { value, context } = this.#actor;
    return checkpointOf(this.path, this.#events.seq, value as AgentSnapshot['state'], context, this.#history, since);
  }

  /** Stops the actor and completes `events$`. The agent cannot be used afterwards. */
  dispose(): void {
    this.#runs.stopTimer();
    this.#actor.stop();
    this.#events.complete();
  }

  get #context(): AgentContext {
    return this.#actor.context;
  }

  #send(event: AgentMachineEvent extends infer E ? (E extends { at: number } ? Omit<E, 'at'> : never) : never): void {
    this.#actor.send(withFields(event, { at: this.#clock.now() }) as AgentMachineEvent);
  }

  #assertIdle(call: string): void {
    if (this.isRunning) {
      throw new AgentStateError(ErrorCode.AlreadyRunning, `cannot ${call}() while a run is active (state ${this.state}): use steer() or followUp()`);
    }
  }

  #asMessage(message: string | Message): Message {
    return typeof message === 'string' ? { role: 'user', content: message, timestamp: this.#clock.now() } : message;
  }

  #start(event: { type: 'PROMPT'; runId: RunId; messages: Message[] } | { type: 'CONTINUE'; runId: RunId }): Promise<AgentResult> {
    this.#runId = event.runId;
    const run = this.#beginRun();
    this.#send(event);
    return run;
  }

  #beginRun(): Promise<AgentResult> {
    this.#events.newRun();
    const maxWall = this.#maxWallTimeMs;
    if (maxWall === undefined) return this.#runs.begin();
    const startedAt = this.#context.run?.startedAt;
    const elapsed = startedAt === undefined || !this.isRunning ? 0 : this.#clock.now() - startedAt;
    return this.#runs.begin({
      remainingMs: maxWall - elapsed,
      reached: () => {
        if (this.isRunning) this.#send({ type: 'LIMIT', limit: { kind: 'maxWallTimeMs', limit: maxWall, actual: maxWall }, results: this.#effects.settled() });
      },
    });
  }

  /**
   * Carries out the last transition's outbox (each once), history changes first so its events and effects see the history it left. `beforeTurn`
   * runs before `turn_start` is published; when it stops the run, the turn's model call is not made.
   */
  #onTransition(outbox: MachineOutput[]): void {
    if (outbox === this.#handled) return;
    this.#handled = outbox;
    this.#history = applyHistoryOps(this.#history, outbox);
    let stop: string | undefined;
    for (const item of outbox) {
      if (isHistoryOp(item)) continue;
      if (isCommand(item)) {
        if (item.type !== 'cmd.model' || stop === undefined) this.#effects.carryOut(item, this.#history, this.#context.view);
      } else if (item.type === 'run.end') {
        this.#publish({ type: 'agent_end', result: buildResult(this.#history, item.run, item.at), runId: NO_RUN, agentPath: NO_PATH, seq: 0, ts: NO_TS });
      } else if (item.type === 'turn_start') {
        stop = this.#hooks.beforeTurn(item.turn);
        if (stop === undefined) this.#publish(item);
      } else {
        this.#publish(item);
      }
    }
    if (stop !== undefined) this.#send({ type: 'STOP', reason: stop });
  }

  /** Stamps the envelope on `payload` and publishes it, with the run-level hooks around it (see `AgentHooks`). */
  #publish(payload: UnstampedEvent): void {
    if (payload.type === 'agent_start') this.#hooks.runStart();
    else if (payload.type === 'agent_end') this.#hooks.beforeEnd(payload.result);
    const event = this.#events.publish(payload, this.#runId, this.path, this.#clock.now());
    switch (event.type) {
      case 'turn_end':
        this.#hooks.afterTurn(event.turn, event.message, event.toolResults);
        break;
      case 'agent_end':
        this.#hooks.runEnd(event.result);
        this.#runs.end(event.result);
        break;
    }
  }

  #onCrash(error: unknown): void {
    // Only a bug in the machine gets here; still end the run visibly rather than hang.
    const info = { code: ErrorCode.Internal, message: error instanceof Error ? error.message : String(error) };
    this.#publish({ type: 'error', error: info, runId: NO_RUN, agentPath: NO_PATH, seq: 0, ts: NO_TS });
    this.#runs.end(crashedResult(this.#runId, this.#context.run, info));
  }
}
