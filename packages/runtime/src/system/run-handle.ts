import {
  addUsage,
  emptyUsage,
  TroupeError,
  type AgentEvent,
  type AgentPath,
  type AgentResult,
  type ErrorInfo,
  type PendingInput,
  type PermissionDecision,
  type RunId,
  type RunStopReason,
  type Usage,
} from '@troupe/core';
import type { StepOutcome } from '../pipeline/pipeline-runner.js';
import { EMPTY, type Observable, type Subscription } from 'rxjs';
import type { RunStatus } from '../store/run-store.js';
import type { ControlCommand, Transport } from './transport.js';
import { RunErrorCode } from '../runtime-error-codes.js';
import { PathMap } from './path-map.js';

/** What a run has spent so far: usage summed over its actors, and its turns (each actor's latest, summed). */
export interface RunProgress {
  usage: Usage;
  turns: number;
}

/** An actor of the run waiting for a user, and what for. */
export interface PendingAt {
  path: AgentPath;
  input: PendingInput;
}

/** How a run ended. */
export interface RunResult {
  runId: RunId;
  status: Exclude<RunStatus, 'running' | 'waiting' | 'interrupted'>;
  stopReason: RunStopReason;
  /** The entry agent's final text, or a pipeline's output as text. */
  text: string;
  /** A pipeline's output (the last step's), and every step's outcome. */
  output?: unknown;
  steps?: Record<string, StepOutcome>;
  error?: ErrorInfo;
  /** Usage and cost summed over every actor of the run. */
  usage: Usage;
  /** The entry agent's own result (runs that start at an agent). */
  agent?: AgentResult;
}

/** The status of a run whose entry ended with `stopReason`. */
export function finalStatusOf(stopReason: RunStopReason): RunResult['status'] {
  return stopReason === 'error' ? 'failed' : stopReason === 'aborted' ? 'aborted' : 'done';
}

/**
 * A run of the runtime: its events, its outcome, what it waits for, and the controls that reach
 * any of its actors by path.
 *
 * `events$` is hot (subscribe right after `run()` returns to see everything); `result` never
 * rejects for run failures, only for a failure of the runtime itself (a store that cannot write).
 */
export class RunHandle {
  readonly id: RunId;
  /** The entry actor's path. */
  readonly entry: AgentPath;
  readonly #transport: Transport;
  /** Every actor waiting for a user, by path; made when the first one asks. */
  #pending: PathMap<PendingInput> | undefined;
  /** What stops the handle hearing its run, when the transport has no `listen` (see the constructor). */
  readonly #subscription: Subscription | undefined;
  /** How the whole run is aborted, when not by aborting its entry (a pipeline's). */
  readonly #abort: (() => Promise<void>) | undefined;
  /** The runtime's, shared by its runs (told which run changed): no closure per run. */
  readonly #onChange: (status: RunStatus, handle: RunHandle) => void;
  readonly #onProgress: ((progress: RunProgress, handle: RunHandle) => void) | undefined;
  #usage = emptyUsage();
  /** The entry's latest turn (a turn an actor restored from a checkpoint takes again counts once). */
  #entryTurn = 0;
  /** Each other actor's latest turn, likewise; made at the first (most runs have just their entry: no map for it). */
  #turns: PathMap<number> | undefined;
  /** The sum of {@link #turns}, kept as they change: read on every usage and turn event, it must not walk every actor. */
  #turnTotal = 0;
  /** The usage events counted live, while a resumed run's earlier usage is still to be counted (see {@link countEarlier}). */
  #liveUsage: Set<string> | undefined;
  #ended = false;
  /** The run's outcome: the runtime's once the run ends, or made when first asked for before (a run waiting for days keeps none). */
  #result: Promise<RunResult> | undefined;
  /** Settles {@link #result} when it was asked for before the run ended. */
  #settle: ((outcome: Promise<RunResult>) => void) | undefined;

  constructor(
    id: RunId,
    entry: AgentPath,
    transport: Transport,
    options: {
      /** Called when the run starts or stops waiting, with this handle (one function may serve many runs). */
      onChange(status: RunStatus, handle: RunHandle): void;
      /** Called as the run's usage or turns grow, with this handle. */
      onProgress?(progress: RunProgress, handle: RunHandle): void;
      waiting?: PendingAt[];
      abort?: () => Promise<void>;
      resumed?: boolean;
    },
  ) {
    const { waiting = [] } = options;
    this.#onChange = options.onChange;
    this.#onProgress = options.onProgress;
    if (options.resumed === true) this.#liveUsage = new Set();
    this.id = id;
    this.entry = entry;
    this.#transport = transport;
    this.#abort = options.abort;
    for (const { path, input } of waiting) this.#waitingAt(path, input);
    // A plain listener where the transport takes one: no rxjs subscriber per run, and no closures
    // either (a bound method; the transport lets it go as the run's events end, after `end`).
    if (transport.listen !== undefined) transport.listen(id, this.#hear.bind(this));
    else this.#subscription = transport.events(id).subscribe((event) => this.#hear(event));
  }

  /**
   * The run's events as they come (hot: subscribe right after `run()` returns to see everything).
   * Each read is a new observable of the same events: a handle keeps none (most waiting runs are
   * never watched again, and many may be kept for days).
   */
  get events$(): Observable<AgentEvent> {
    // An ended run has nothing more to say: no subscription to the transport for it.
    return this.#ended ? EMPTY : this.#transport.events(this.id);
  }

  /** How the run ended, once it has (see the class's note on failures). */
  get result(): Promise<RunResult> {
    this.#result ??= new Promise<RunResult>((resolve) => (this.#settle = resolve));
    return this.#result;
  }

  /** `waiting` while any actor waits for a user, else `running` until the entry ends. */
  get status(): RunStatus {
    if (this.#ended) return 'done';
    return (this.#pending?.size ?? 0) > 0 ? 'waiting' : 'running';
  }

  /** Every actor waiting for a user, with what it waits for. */
  get waiting(): PendingAt[] {
    return [...(this.#pending ?? [])].map(([path, input]) => ({ path: path as AgentPath, input }));
  }

  /** Usage summed over every actor so far. */
  get usage(): Usage {
    return this.#usage;
  }

  /** The run's turns so far: each actor's latest turn, summed over its actors. */
  get turns(): number {
    return this.#turnTotal;
  }

  /**
   * Called by the runtime when it resumes a run: adds the usage of the run's events from before
   * this handle (as the store kept them), so the run's usage is what all of it cost, not only
   * what came after the resume. An event also seen live meanwhile counts once. Its turns likewise.
   */
  countEarlier(events: readonly AgentEvent[]): void {
    const live = this.#liveUsage;
    this.#liveUsage = undefined;
    for (const event of events) {
      if (event.type === 'usage' && live?.has(usageKey(event)) !== true) this.#usage = addUsage(this.#usage, event.usage);
      else if (event.type === 'turn_start') this.#countTurn(event.agentPath, event.turn);
    }
    this.#progressed();
  }

  /** Answers the question of the actor at `path` (default: the only actor asking one). */
  async reply(answer: string, path?: AgentPath | string): Promise<void> {
    const target = this.#target('question', path, undefined);
    return this.#control(target, { type: 'reply', answer });
  }

  /** Decides the permission request `callId` (of the actor at `path`, found by call id when omitted). */
  async approve(callId: string, decision: PermissionDecision, path?: AgentPath | string): Promise<void> {
    const target = this.#target('permission', path, callId);
    return this.#control(target, { type: 'approve', callId, decision });
  }

  /** Steers the actor at `path` (default: the entry). */
  steer(message: string, path: AgentPath | string = this.entry): Promise<void> {
    return this.#control(path as AgentPath, { type: 'steer', message });
  }

  /** Queues a follow-up for the actor at `path` (default: the entry). */
  followUp(message: string, path: AgentPath | string = this.entry): Promise<void> {
    return this.#control(path as AgentPath, { type: 'followUp', message });
  }

  /** Aborts the run: the entry actor (or every running pipeline step) and every actor below it. */
  abort(): Promise<void> {
    return this.#ended ? Promise.resolve() : this.#abortRun();
  }

  /**
   * Aborts the actor at `path` and every actor below it (its delegates); the run goes on with
   * the abort as that actor's result. The entry's path aborts the whole run, as {@link abort} does.
   */
  abortActor(path: AgentPath | string): Promise<void> {
    if (this.#ended) return Promise.resolve();
    return path === this.entry ? this.#abortRun() : this.#control(path as AgentPath, { type: 'abort' });
  }

  /** Called by the runtime with the run's outcome as it ends (the first it is given stands). */
  finish(outcome: Promise<RunResult>): void {
    const settle = this.#settle;
    this.#settle = undefined;
    if (settle !== undefined) settle(outcome);
    else this.#result ??= outcome;
  }

  /** Called by the runtime when the entry has ended. */
  end(): void {
    this.#ended = true;
    this.#pending = undefined;
    this.#subscription?.unsubscribe();
  }

  #abortRun(): Promise<void> {
    return this.#abort?.() ?? this.#control(this.entry, { type: 'abort' });
  }

  #control(path: AgentPath, command: ControlCommand): Promise<void> {
    return this.#transport.control(this.id, path, command);
  }

  /** Follows one of the run's events (none once it has ended), and tells the runtime when the run starts or stops waiting. */
  #hear(event: AgentEvent | undefined): void {
    if (event === undefined || this.#ended) return;
    const before = this.#pending?.size ?? 0;
    this.#track(event);
    if ((before === 0) !== ((this.#pending?.size ?? 0) === 0)) this.#onChange(this.status, this);
  }

  #track(event: AgentEvent): void {
    switch (event.type) {
      case 'usage':
        this.#usage = addUsage(this.#usage, event.usage);
        // A resumed run's usage is only whole once its earlier usage is counted.
        if (this.#liveUsage === undefined) this.#progressed();
        else this.#liveUsage.add(usageKey(event));
        break;
      case 'turn_start':
        this.#countTurn(event.agentPath, event.turn);
        if (this.#liveUsage === undefined) this.#progressed();
        break;
      case 'permission_request':
        this.#waitingAt(event.agentPath, { kind: 'permission', callId: event.toolCallId, toolName: event.toolName, args: event.args });
        break;
      case 'question': {
        const input: PendingInput = { kind: 'question', callId: event.toolCallId, toolName: event.toolName, question: event.question };
        if (event.details !== undefined) input.details = event.details;
        this.#waitingAt(event.agentPath, input);
        break;
      }
      case 'state':
        if (event.state !== 'waiting_user') this.#pending?.delete(event.agentPath);
        break;
      default:
        break;
    }
  }

  #waitingAt(path: string, input: PendingInput): void {
    this.#pending ??= new PathMap();
    this.#pending.set(path, input);
  }

  #countTurn(path: string, turn: number): void {
    if (path === this.entry) {
      if (turn <= this.#entryTurn) return;
      this.#turnTotal += turn - this.#entryTurn;
      this.#entryTurn = turn;
      return;
    }
    this.#turns ??= new PathMap();
    const before = this.#turns.get(path) ?? 0;
    if (turn <= before) return;
    this.#turns.set(path, turn);
    this.#turnTotal += turn - before;
  }

  #progressed(): void {
    this.#onProgress?.({ usage: this.#usage, turns: this.turns }, this);
  }

  #target(kind: PendingInput['kind'], path: string | undefined, callId: string | undefined): AgentPath {
    const candidates = this.waiting.filter(
      (p) => p.input.kind === kind && (path === undefined || p.path === path) && (callId === undefined || p.input.callId === callId),
    );
    const [first, ...others] = candidates;
    if (first === undefined) {
      const what = kind === 'question' ? 'an answer' : `a decision${callId === undefined ? '' : ` on ${callId}`}`;
      const waiting = this.waiting.map((p) => `${p.path} (${p.input.kind} ${p.input.callId})`).join(', ');
      throw new TroupeError(
        RunErrorCode.NotWaiting,
        `no actor of run ${this.id}${path === undefined ? '' : ` at ${path}`} is waiting for ${what}${waiting === '' ? '' : `; waiting: ${waiting}`}`,
      );
    }
    if (others.length > 0) {
      throw new TroupeError(
        RunErrorCode.Ambiguous,
        `several actors are waiting for ${kind === 'question' ? 'an answer' : 'a decision'}: ${candidates.map((p) => p.path).join(', ')}; say which path`,
      );
    }
    return first.path;
  }
}

/** Tells one usage event from another: an actor restored from an earlier checkpoint counts `seq` again from there, at later times. */
function usageKey(event: AgentEvent): string {
  return `${event.agentPath}\n${event.seq}\n${event.ts}`;
}
