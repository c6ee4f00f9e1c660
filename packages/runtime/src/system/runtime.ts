import {
  createRunId,
  createSessionId,
  isSnapshotActive,
  parseAgentPath,
  sharedSchemaValidator,
  systemClock,
  TroupeError,
  type AgentPath,
  type Clock,
  type RunId,
  type SchemaValidator,
} from '@troupe/core';
import type { PipelineContext } from '../pipeline/pipeline-context.js';
import { runPipeline, type PipelineResult } from '../pipeline/pipeline-runner.js';
import { agentConfigOf } from '../agent-from-config.js';
import { defaultToolRegistry } from '../default-tools.js';
import type { GraphConfig, PipelineConfig } from '../config/graph-config.js';
import { createMemoryRunStore } from '../store/memory-run-store.js';
import type { RunRecord, RunStatus, RunStore } from '../store/run-store.js';
import { clockSleep } from './clock-sleep.js';
import { ProgressWrites } from './progress-writes.js';
import { endedResult } from './ended-result.js';
import { outcomeOf } from './delegation-tool.js';
import { graphActorFactory, type ActorBuildOptions } from './graph-actor-factory.js';
import type { ActorFactory } from './actor-host.js';
import type { HibernationPolicy } from './hibernation.js';
import { createInProcessTransport } from './in-process-transport.js';
import { RunErrorCode, RunStoreErrorCode } from '../runtime-error-codes.js';
import { RunHandle, type PendingAt, type RunProgress } from './run-handle.js';
import { RunEnding } from './run-ending.js';
import type { Instrumentation, RunTrace } from './instrumentation.js';
import type { TraceCarrier } from './trace-carrier.js';
import type { Transport } from './transport.js';

/** Options of {@link createRuntime}. */
export interface RuntimeOptions extends ActorBuildOptions {
  graph: GraphConfig;
  /** Where runs are recorded. Default: in memory. */
  store?: RunStore;
  /**
   * Where actors run. Default: this process. Either a transport, or a function building one from
   * the runtime's actor factory and store (how a NATS transport is given the graph's actors).
   */
  transport?: Transport | ((parts: TransportParts) => Transport);
  /** Failures of background work (a store write); default: ignored after being reported in the run. */
  onError?: (error: unknown) => void;
  /**
   * With the default (in-process) transport: actors waiting for a user longer than `afterMs`, or
   * beyond the `maxWaiting` most that may wait in memory (the longest-waiting first), are
   * checkpointed to the store and dropped from memory, and restored by the next reply, approval or
   * abort for their path. For many runs waiting on people at once. Default: they stay in memory.
   */
  hibernation?: HibernationPolicy;
}

/** What the runtime hands a transport it builds: how to build the graph's actors, and where runs are kept. */
export interface TransportParts {
  factory: ActorFactory;
  store: RunStore;
  /** The graph's `concurrency` of each agent. */
  concurrency(agent: string): number | undefined;
  /** Follows the actors the transport hosts (the runtime's `instrumentation`). */
  instrumentation?: Instrumentation;
}

/** Options of one run. */
export interface RunStartOptions {
  /** The agent to start (default: the graph's entry). */
  entry?: string;
  runId?: RunId;
  /** The conversation the run belongs to (recorded with it, carried by its actors' `agent_start`). Default: a new session. */
  sessionId?: string;
}

/** Creates a {@link Runtime}. */
export function createRuntime(options: RuntimeOptions): Runtime {
  return new Runtime(options);
}

/**
 * Hosts a graph's agents as actors: starts runs at an entry agent, lets agents delegate to
 * child actors, records every run in the store, and resumes a recorded run in another process.
 */
export class Runtime {
  readonly graph: GraphConfig;
  readonly store: RunStore;
  readonly transport: Transport;
  readonly #clock: Clock;
  readonly #instrumentation: Instrumentation | undefined;
  readonly #validator: SchemaValidator = sharedSchemaValidator();
  /** How many status changes (running ⇄ waiting) are still being written; `close` waits for them (`#statusDrained` tells every waiting close). */
  #statusWrites = 0;
  #statusDrained: (() => void) | undefined;
  /** The usage and turns of runs going on, written at most once per turn of the event loop; `close` and a run's end wait for them. */
  readonly #progress: ProgressWrites;
  /** The runs this runtime started or resumed, whose events `close` flushes. */
  readonly #runs = new Set<RunId>();
  /** The traces of the runs this runtime started or resumed that have not ended, by their handles. */
  readonly #traces = new Map<RunHandle, RunTrace>();
  /** Set as `close` starts: a run whose entry was spawned meanwhile is left as close leaves the others. */
  #closing = false;
  /** Ends the runs: records their results as their entries (or pipelines) end. */
  readonly #ending: RunEnding;

  constructor(options: RuntimeOptions) {
    this.graph = options.graph;
    this.store = options.store ?? createMemoryRunStore();
    this.#progress = new ProgressWrites(this.store);
    this.#clock = options.clock ?? systemClock;
    this.#instrumentation = options.instrumentation;
    const sleep = clockSleep(this.#clock);
    const { graph: _graph, store: _store, transport, onError, hibernation, ...build } = options;
    const parts: TransportParts = {
      store: this.store,
      // One tool registry for every actor, not one per spawned agent.
      factory: graphActorFactory(this.graph, {
        ...build,
        store: this.store,
        sleep,
        tools: build.tools ?? defaultToolRegistry(),
        ...(onError === undefined ? {} : { onError }),
      }),
      concurrency: (agent) => this.graph.agents[agent]?.concurrency,
      ...(options.instrumentation === undefined ? {} : { instrumentation: options.instrumentation }),
    };
    if (typeof transport === 'function') this.transport = transport(parts);
    else
      this.transport =
        transport ??
        createInProcessTransport({ ...parts, ...(onError === undefined ? {} : { onError }), ...(hibernation === undefined ? {} : { hibernation }) });
    this.#ending = new RunEnding({
      store: this.store,
      transport: this.transport,
      clock: this.#clock,
      progress: this.#progress,
      traces: this.#traces,
      runs: this.#runs,
    });
  }

  /**
   * Starts a run of the entry (an agent or a pipeline) on `input`. Subscribe to `events$` right
   * away to see it all.
   */
  run(input: string, options: RunStartOptions = {}): RunHandle {
    const entry = options.entry ?? this.graph.entry;
    const pipeline = this.graph.pipelines?.[entry];
    if (pipeline === undefined) agentConfigOf(this.graph, entry);
    const id = options.runId ?? createRunId(this.#clock.now());
    const path = parseAgentPath(entry);
    const sessionId = options.sessionId ?? createSessionId(this.#clock.now());
    const trace = this.#instrumentation?.run({ runId: id, entry, kind: pipeline === undefined ? 'agent' : 'pipeline', sessionId, resumed: false });
    const record: RunRecord = { id, graphFile: this.graph.file, entry, input, sessionId, status: 'running', startedAt: this.#clock.now(), ...traced(trace) };
    if (pipeline !== undefined) {
      const controller = new AbortController();
      const handle = this.#handle(id, path, trace, [], () => Promise.resolve(controller.abort()));
      this.#ending.pipelineEnded(
        handle,
        this.store.createRun(record).then(() => this.#runPipeline(pipeline, input, id, sessionId, controller.signal, trace)),
        controller.signal,
      );
      return handle;
    }
    const handle = this.#handle(id, path, trace);
    void this.#begin(handle, path, () =>
      this.store.createRun(record).then(() => this.transport.spawn({ runId: id, path, agent: entry, input, depth: 0, sessionId, ...traced(trace) })),
    );
    return handle;
  }

  /**
   * Resumes a recorded run (after its process ended): every actor that had not ended is restored
   * from its latest snapshot and goes on; actors waiting for a user wait again, answerable through
   * the returned handle. An entry that never checkpointed starts again from the run's input. A
   * pipeline run is run again over its recorded steps: ended steps give their recorded output,
   * restored step actors are waited for, later steps start. First, the tool processes the gone
   * process left running are ended (`RunStore.processes`).
   *
   * On a distributed transport only the actors stranded with the process that hosted them are
   * restored here (`Transport.stranded`): workers and the task queue keep the others. It rejects
   * with `run_still_hosted` while a live process hosts the run.
   */
  async resume(runId: RunId): Promise<RunHandle> {
    const record = await this.store.getRun(runId);
    if (record === undefined) throw new TroupeError(RunStoreErrorCode.UnknownRun, `unknown run ${runId}`);
    if (record.status !== 'running' && record.status !== 'waiting' && record.status !== 'interrupted') {
      throw new TroupeError(RunErrorCode.Finished, `run ${runId} has already finished (${record.status})`);
    }
    const stranded: ReadonlySet<string> | undefined = await this.transport.stranded?.(runId);
    // Before any step runs again: what the tools of a killed process left running would clash with it.
    await this.store.processes?.reap(runId);
    const snapshots = await this.store.loadSnapshots(runId);
    const byPath = new Map(snapshots.map((s) => [s.agentPath, s]));
    const entry = parseAgentPath(record.entry);
    const live = snapshots.filter(isSnapshotActive);
    const waiting: PendingAt[] = live.flatMap((s) => (s.context.pending === null ? [] : [{ path: s.agentPath as never, input: s.context.pending }]));
    const pipeline = this.graph.pipelines?.[record.entry];
    const trace = this.#instrumentation?.run({
      runId,
      entry: record.entry,
      kind: pipeline === undefined ? 'agent' : 'pipeline',
      resumed: true,
      ...(record.sessionId === undefined ? {} : { sessionId: record.sessionId }),
      ...(record.trace === undefined ? {} : { parent: record.trace }),
    });
    const controller = new AbortController();
    const handle = this.#handle(runId, entry, trace, waiting, pipeline === undefined ? undefined : () => Promise.resolve(controller.abort()), true);
    // What the run cost before the resume counts too.
    handle.countEarlier(await this.store.readEvents(runId));
    const children = await this.store.children(runId);
    // A child that ended while its outcome was not yet recorded: record it from its snapshot (a
    // transport that keeps results answers its parent itself).
    for (const child of this.transport.keepsResults === true ? [] : children) {
      const snapshot = byPath.get(child.path);
      if (child.outcome === undefined && snapshot !== undefined && !isSnapshotActive(snapshot)) {
        await this.store.saveChild(runId, { ...child, outcome: outcomeOf(endedResult(runId, snapshot)) });
      }
    }
    await this.store.updateRun(runId, { status: waiting.length > 0 ? 'waiting' : 'running' });
    // A step actor's path names its step, not its agent: take the agent from its record.
    const agents = new Map(children.map((child) => [child.path as string, child.agent]));
    // Children first, so a parent re-running its delegation finds its child already hosted.
    const here = stranded === undefined ? live : live.filter((snapshot) => stranded.has(snapshot.agentPath));
    for (const snapshot of here.sort((a, b) => depthOf(b.agentPath) - depthOf(a.agentPath))) {
      const agent = agents.get(snapshot.agentPath) ?? snapshot.agentPath.split('/').at(-1)?.replace(/#\d+$/, '') ?? record.entry;
      await this.transport.spawn({ runId, path: parseAgentPath(snapshot.agentPath), agent, snapshot, depth: depthOf(snapshot.agentPath), ...traced(trace) });
    }
    if (pipeline !== undefined) {
      this.#ending.pipelineEnded(handle, this.#runPipeline(pipeline, record.input, runId, record.sessionId, controller.signal, trace), controller.signal);
      return handle;
    }
    const fresh = !byPath.has(entry) && (stranded === undefined || stranded.has(entry));
    void this.#begin(handle, entry, async () => {
      // It never checkpointed: nothing it did is lost by starting it again.
      if (fresh)
        await this.transport.spawn({
          runId,
          path: entry,
          agent: record.entry,
          input: record.input,
          depth: 0,
          ...(record.sessionId === undefined ? {} : { sessionId: record.sessionId }),
          ...traced(trace),
        });
    });
    return handle;
  }

  /**
   * Stops every actor this runtime hosts; resolves once the status changes and events of its runs
   * are stored (a run left waiting reads back whole from another process).
   */
  async close(): Promise<void> {
    this.#closing = true;
    for (const [handle, trace] of this.#traces) trace.leave(handle.status === 'waiting' ? 'waiting' : 'running');
    this.#traces.clear();
    await this.transport.close();
    const before = this.#statusDrained;
    if (this.#statusWrites > 0) await new Promise<void>((resolve) => (this.#statusDrained = () => void [before?.(), resolve()]));
    await this.#progress.settleAll();
    await Promise.all([...this.#runs].map((id) => this.store.flush(id).catch(() => undefined)));
  }

  /** Runs `pipeline` in run `runId`; its step actors are recorded in the store, so a resumed run goes on from them. */
  #runPipeline(
    pipeline: PipelineConfig,
    input: string,
    runId: RunId,
    sessionId: string | undefined,
    signal: AbortSignal,
    trace: RunTrace | undefined,
  ): Promise<PipelineResult> {
    const context: PipelineContext = {
      transport: this.transport,
      store: this.store,
      runId,
      root: parseAgentPath(pipeline.name),
      validator: this.#validator,
      signal,
    };
    if (sessionId !== undefined) context.sessionId = sessionId;
    if (this.#instrumentation !== undefined) context.instrumentation = this.#instrumentation;
    if (trace?.carrier !== undefined) context.trace = trace.carrier;
    return runPipeline(pipeline, input, context);
  }

  #handle(id: RunId, entry: AgentPath, trace: RunTrace | undefined, waiting: PendingAt[] = [], abort?: () => Promise<void>, resumed = false): RunHandle {
    this.#runs.add(id);
    const handle = new RunHandle(id, entry, this.transport, {
      onChange: this.#onChange,
      onProgress: this.#onProgress,
      waiting,
      resumed,
      ...(abort === undefined ? {} : { abort }),
    });
    if (trace !== undefined) this.#traces.set(handle, trace);
    return handle;
  }

  /** Records a run's status change (running ⇄ waiting); one function for every run, not a closure each; the writes are counted, not kept in a set (a promise, a closure and an entry more each). */
  readonly #onChange = (status: RunStatus, handle: RunHandle): void => {
    this.#statusWrites += 1;
    void this.store.updateRun(handle.id, { status }).then(this.#statusWritten, this.#statusWritten);
  };

  /** One function for every status write as it lands. */
  readonly #statusWritten = (): void => {
    this.#statusWrites -= 1;
    if (this.#statusWrites === 0) this.#statusDrained?.();
  };

  /** The record's usage and turns follow the run, so a run that is still going (or was killed) lists what it has spent. */
  readonly #onProgress = (progress: RunProgress, handle: RunHandle): void => this.#progress.write(handle.id, progress);

  /**
   * Starts the run's entry at `path` (`start` spawns it) and ends the run once the entry ends; a
   * failure to start ends it failed. If the runtime started closing while the spawn went on, the
   * entry is gone with the others: the run is left as it was (still running, or waiting for a
   * user, to resume later), not recorded as failed for want of an actor.
   */
  async #begin(handle: RunHandle, path: AgentPath, start: () => Promise<void>): Promise<void> {
    try {
      await start();
      if (!this.#closing) this.#ending.awaitEntry(handle, path);
    } catch (error) {
      this.#ending.failed(handle, error);
    }
  }
}

/** The spawn request fields that start an actor in `trace`'s context. */
function traced(trace: RunTrace | undefined): { trace?: TraceCarrier } {
  return trace?.carrier === undefined ? {} : { trace: trace.carrier };
}

function depthOf(path: string): number {
  return path.split('/').length - 1;
}
