import { randomUUID } from 'node:crypto';
import type { Consumer, JsMsg } from '@nats-io/jetstream';
import { Svcm, type Service } from '@nats-io/services';
import { isSnapshotActive, snapshotState, systemClock, toErrorInfo, TroupeError, type AgentResult, type ErrorInfo } from '@troupe/core';
import { clockSleep, defaultToolRegistry, GraphErrorCode, endedResult, failedResult, graphActorFactory, type SpawnRequest } from '@troupe/runtime';
import { graphHash } from './graph-hash.js';
import { restoreLocalChildren } from '../actors/local-children.js';
import { NatsErrorCode } from '../nats-error-code.js';
import { createNatsRunStore, loadSnapshot, type NatsRunStore } from '../store/nats-run-store.js';
import type { ActorHosting, Claim } from '../transport/actor-hosting.js';
import { createNatsTransport, type NatsTransport } from '../transport/nats-transport.js';
import { finishRun } from './run-finish.js';
import type { WorkerLoad } from './worker-load.js';
import { Slots } from './slots.js';
import { taskConsumer } from './task-consumer.js';
import { TaskPump } from './task-pump.js';
import { outcomeOfResult, TakenTask } from './taken-task.js';
import { countTakes } from './task-takes.js';
import { publishDeadLetter } from './dead-letter.js';
import { GRAPH_HEADER, readTask, spawnRequestOf, type Task } from './task.js';
import type { Worker, WorkerOptions } from './worker-options.js';

/** How long a worker waits for the host a task's actor record names to answer before taking the actor over. */
const PROBE_TIMEOUT_MS = 1000;

/**
 * Starts a worker: a competing consumer of the tasks of the agents it hosts. Each task hosts an
 * actor — fresh, or restored from its latest snapshot when the task was redelivered or wakes an
 * actor that waited for a user — and is acked only once the actor's end (or its wait for a user)
 * is stored. `working()` heartbeats keep long tasks alive; a task delivered more than
 * `maxDeliver` times goes to the dead-letter subject and its actor ends with an error naming the
 * cause, which its parent gets as the tool result. It takes only the tasks of its own graph
 * (their subjects carry the graph's fingerprint, see `taskConsumer`), so workers of two graphs with
 * agents of the same name share a namespace. It registers as a NATS service with its load, and
 * logs every task it takes and how it ended at info.
 */
export async function startWorker(options: WorkerOptions): Promise<Worker> {
  const worker = new TaskWorker(options);
  await worker.start();
  return worker;
}

class TaskWorker implements Worker {
  readonly id: string;
  readonly #options: WorkerOptions;
  readonly #agents: string[];
  readonly #hash: string;
  readonly #slots: Slots;
  readonly #transport: NatsTransport;
  /** The transport's hosting role: the actors of the tasks taken here are claimed and hosted through it. */
  readonly #hosting: ActorHosting;
  readonly #store: NatsRunStore;
  readonly #running = new Set<TakenTask>();
  readonly #pumps: TaskPump[] = [];
  /** `parked` is the reported name of the actors set aside (see `WorkerLoad`). */
  readonly #counts = { taken: 0, ended: 0, parked: 0, deadLettered: 0 };
  readonly #ackWaitMs: number;
  /** How long a worker that finds a task's actor recorded as hosted waits for its host to answer. */
  readonly #probeMs: number;
  readonly #maxDeliver: number;
  #service: Service | undefined;
  #stopping = false;

  constructor(options: WorkerOptions) {
    this.#options = options;
    this.id = options.id ?? `worker-${randomUUID().slice(0, 8)}`;
    const { graph } = options;
    this.#agents = options.agents ?? Object.keys(graph.agents);
    for (const agent of this.#agents)
      if (graph.agents[agent] === undefined) throw new TroupeError(GraphErrorCode.UnknownAgent, `the graph has no agent "${agent}" to host`);
    this.#hash = graphHash(graph);
    this.#slots = new Slots(options.concurrency ?? 16);
    this.#ackWaitMs = options.ackWaitMs ?? 30_000;
    this.#probeMs = Math.min(PROBE_TIMEOUT_MS, this.#ackWaitMs / 3);
    this.#maxDeliver = options.maxDeliver ?? 5;
    const store = createNatsRunStore(options.resources);
    this.#store = store;
    const { resources: _r, graph: _g, agents: _a, concurrency: _c, ackWaitMs: _w, maxDeliver: _m, id: _i, logger: _l, workerCommand, ...build } = options;
    const onError = (error: unknown): void => this.#options.logger?.error({ err: error }, 'background write failed');
    this.#transport = createNatsTransport({
      resources: options.resources,
      store,
      factory: graphActorFactory(graph, {
        ...build,
        store,
        sleep: clockSleep(build.clock ?? systemClock),
        tools: build.tools ?? defaultToolRegistry(),
        onError,
      }),
      graphHash: this.#hash,
      placement: (agent) => graph.agents[agent]?.placement ?? 'local',
      concurrency: (agent) => graph.agents[agent]?.concurrency,
      hostId: this.id,
      ...(workerCommand === undefined ? {} : { workerCommand }),
      ...(build.instrumentation === undefined ? {} : { instrumentation: build.instrumentation }),
      onError,
    });
    this.#hosting = this.#transport.hosting;
  }

  async start(): Promise<void> {
    const { resources } = this.#options;
    const settings = { ackWaitMs: this.#ackWaitMs, maxDeliver: this.#maxDeliver };
    const consumers: Array<[string, Consumer]> = [];
    // Its own graph's consumers only: tasks are routed per graph (see taskConsumer).
    for (const agent of this.#agents) consumers.push([agent, await taskConsumer(resources, this.#hash, agent, settings)]);
    for (const [agent, consumer] of consumers) {
      const limit = this.#options.graph.agents[agent]?.concurrency;
      this.#pumps.push(
        new TaskPump({
          consumer,
          // Once the connection is up again: a pull also fails while NATS is away.
          renew: () => resources.connection.whenConnected().then(() => taskConsumer(resources, this.#hash, agent, settings)),
          slots: this.#slots,
          ...(limit === undefined ? {} : { own: new Slots(limit) }),
          run: (msg, slot) => this.#take(msg, slot),
          onError: (error) => this.#options.logger?.warn({ err: error, agent }, 'pulling tasks failed; retrying'),
        }),
      );
    }
    const svcm = new Svcm(resources.nc);
    this.#service = await svcm.add({
      name: resources.names.serviceName,
      version: '0.1.0',
      description: 'Troupe worker: hosts agent actors taken from the task queue',
      metadata: { namespace: resources.names.namespace, worker: this.id, agents: this.#agents.join(','), graph: this.#hash },
      statsHandler: () => Promise.resolve(this.load()),
    });
    this.#service.addEndpoint('load', {
      subject: `troupe.${resources.names.namespace}.worker.${this.id}.load`,
      handler: (error, msg) => {
        if (error === null) msg.respond(JSON.stringify(this.load()));
      },
    });
    this.#options.logger?.info({ worker: this.id, agents: this.#agents, graph: this.#hash, capacity: this.#slots.size }, 'worker started');
  }

  load(): WorkerLoad {
    return { id: this.id, agents: this.#agents, graph: this.#hash, running: this.#running.size, capacity: this.#slots.size, ...this.#counts };
  }

  async stop(graceMs = 30_000): Promise<void> {
    if (this.#stopping) return;
    this.#stopping = true;
    this.#slots.wakeAll();
    for (const pump of this.#pumps) pump.stop();
    this.#options.logger?.info({ worker: this.id, running: this.#running.size, graceMs }, 'worker stopping');
    await Promise.all(this.#pumps.map((pump) => pump.done));
    let timer: ReturnType<typeof setTimeout> | undefined;
    const grace = new Promise<void>((resolve) => (timer = setTimeout(resolve, graceMs)));
    await Promise.race([Promise.all([...this.#running].map((r) => r.done)), grace]);
    clearTimeout(timer);
    // What is still running goes back to the queue, to resume at its last checkpoint on another worker.
    await Promise.all(
      [...this.#running].map(async (running) => {
        if (running.actor !== undefined) this.#hosting.release(running.actor);
        try {
          await this.#transport.publish({ ...running.task, resume: true }, `${running.task.runId}:${running.task.path}:handover:${randomUUID()}`);
          running.finish('ack', 'handed_over');
        } catch (error) {
          running.log?.warn({ err: error }, 'could not hand a task over; it comes back after its ack wait');
          running.finish('nak', 'handed_over');
        }
      }),
    );
    await this.#service?.stop().catch(() => undefined);
    await this.#transport.close();
    this.#options.logger?.info({ worker: this.id }, 'worker stopped');
  }

  /**
   * Runs one task, once `slot` resolves, to its end, its wait for a user, or its refusal; settles
   * when the message is settled.
   */
  async #take(msg: JsMsg, slot: Promise<void>): Promise<void> {
    let task: Task;
    try {
      task = readTask(msg);
    } catch (error) {
      this.#options.logger?.error({ err: error, worker: this.id, subject: msg.subject }, 'dropped a malformed task');
      msg.term();
      return;
    }
    const running: TakenTask = new TakenTask(msg, task, {
      worker: this.id,
      ackWaitMs: this.#ackWaitMs,
      logger: this.#options.logger,
      onSettled: () => this.#running.delete(running),
      confirm: () => this.#options.resources.nc.flush(),
      // Another worker runs the actor only after the ack wait and its probe of this one.
      lostAfterMs: this.#ackWaitMs + this.#probeMs,
      // Cut off that long: another worker may run the actor by now. Stop it here, unfinished
      // (what it did since its last checkpoint is done again there).
      onLost: () => {
        if (running.actor !== undefined) this.#hosting.release(running.actor);
      },
    });
    this.#running.add(running);
    this.#counts.taken += 1;
    await slot;
    if (this.#stopping) {
      // It waited for a slot until the worker began stopping: it goes back, never started.
      running.finish('nak', 'requeued');
      return;
    }
    try {
      await this.#run(running);
    } catch (error) {
      running.log?.error({ err: error }, 'a task failed before its actor started');
      await this.#endWith(task, toErrorInfo(error)).catch(() => undefined);
      running.finish('term', 'failed');
    }
    await running.done;
  }

  async #run(running: TakenTask): Promise<void> {
    const { msg, task } = running;
    // Tasks are routed per graph, so a task of another graph never reaches this worker's consumers;
    // the stamp is checked all the same, should one be put on this graph's subject by hand.
    const stamped = msg.headers?.get(GRAPH_HEADER) ?? '';
    if (stamped !== this.#hash) {
      await this.#endWith(task, {
        code: NatsErrorCode.GraphMismatch,
        message: `worker ${this.id} runs graph ${this.#hash} but the task for ${task.path} was made for graph ${stamped || '(none)'}: start workers with the coordinator's graph file`,
      });
      running.finish('term', 'refused', { stamped });
      return;
    }
    // A plain task (a fresh child, unclaimed until now) claims where no record is yet: nothing to read first.
    if (task.depth > 0 && task.input !== undefined && task.resume !== true && task.command === undefined) {
      const claim = await this.#hosting.claim(task, 'absent');
      if (claim !== undefined) {
        this.#start(running, claim, { ...spawnRequestOf(task), input: task.input });
        return;
      }
    }
    await this.#takeAgain(running);
  }

  /**
   * Runs a task whose actor has a record: an entry, an actor woken or handed over, or a task
   * delivered again — after its worker died, or at once to a second worker (nats-server 2.9 can do
   * that; the process running it is left to ack it).
   */
  async #takeAgain(running: TakenTask): Promise<void> {
    const { msg, task, log } = running;
    const stored = await this.#transport.records.get(task.runId, task.path);
    if (stored?.record.status === 'ended' && task.command?.type !== 'prompt') {
      running.finish('ack', 'already_ended');
      return;
    }
    // A task comes back only after its holder went silent for an ack wait: a live holder is one
    // handed the same task at once, which has just claimed it and answers quickly.
    const probeMs = this.#probeMs;
    if ((stored?.record.status === 'running' || stored?.record.status === 'waiting') && (await this.#hosting.answersFor(task.runId, task.path, probeMs))) {
      // The process running it acks it.
      running.finish('leave', 'left', { host: stored.record.host });
      return;
    }
    // Not JetStream's delivery count alone: it can be wrong after a worker died (see countTakes).
    const takes = await countTakes(this.#options.resources, task, msg);
    if (takes.count > this.#maxDeliver) {
      await this.#deadLetter(running, takes.count);
      return;
    }
    // In the trace its task carries; one published without (by an older process) keeps its record's.
    const request = spawnRequestOf(task, task.trace ?? stored?.record.trace);
    const snapshot = takes.first ? undefined : await loadSnapshot(this.#options.resources, task.runId, task.path);
    if (snapshot !== undefined && !isSnapshotActive(snapshot) && task.command?.type !== 'prompt') {
      // It ended, but its worker died before saying so: say it now from the snapshot.
      const result = endedResult(task.runId, snapshot);
      await this.#recordEnd(task, result);
      running.finish('ack', outcomeOfResult(result), { stopReason: result.stopReason });
      return;
    }
    if (snapshot !== undefined) request.snapshot = snapshot;
    else request.input = task.input ?? '';
    const claim = await this.#hosting.claim(request, stored?.revision ?? 'absent', stored?.record.abortRequested === true);
    if (claim === undefined) {
      // Another worker claimed it first.
      running.finish('leave', 'left');
      return;
    }
    try {
      // An actor with children has a checkpoint: they are spawned while it executes tools.
      if (snapshot !== undefined) await restoreLocalChildren({ ...this.#options, store: this.#store, transport: this.#transport }, task.runId, task.path);
    } catch (error) {
      claim.abandon();
      throw error;
    }
    log?.debug({ restored: snapshot !== undefined, command: task.command?.type, takes: takes.count }, 'task claimed');
    this.#start(running, claim, request);
    if (running.actor === undefined) return;
    try {
      if (task.command !== undefined) this.#hosting.deliver(running.actor, task.command);
      if (stored?.record.abortRequested === true) this.#hosting.deliver(running.actor, { type: 'abort' });
    } catch (error) {
      log?.warn({ err: error, command: task.command?.type }, 'the command that woke the actor does not apply any more');
    }
    // Restored while waiting for a user and not answered by this task: set it aside again.
    if (snapshot !== undefined && snapshotState(snapshot) === 'waiting_user' && running.actor.agent.state === 'waiting_user') {
      // An answer may come while its record is written: then it goes on here, and its wait or
      // its end settles the task (the hooks of #start).
      if (await this.#hosting.setAside(running.actor)) {
        this.#counts.parked += 1;
        running.finish('ack', 'waiting');
      }
    }
  }

  /** Hosts the task's claimed actor; its wait for a user or its end settles the task. */
  #start(running: TakenTask, claim: Claim, request: SpawnRequest): void {
    const { task, log } = running;
    running.actor = claim.host(request, {
      onWaiting: (actor) => {
        this.#counts.parked += 1;
        this.#hosting.release(actor);
        running.finish('ack', 'waiting');
      },
      onEnded: (actor, result) => {
        this.#counts.ended += 1;
        this.#hosting.release(actor);
        void this.#finishRun(task, result)
          .catch((error: unknown) => log?.error({ err: error }, 'recording the run end failed'))
          .finally(() =>
            running.finish('ack', outcomeOfResult(result), {
              stopReason: result.stopReason,
              ...(result.error === undefined ? {} : { error: result.error.code }),
            }),
          );
      },
    });
  }

  async #deadLetter(running: TakenTask, takes: number): Promise<void> {
    const { deliveries, reason } = await publishDeadLetter(this.#options.resources, running.task, takes, this.id);
    await this.#endWith(running.task, { code: NatsErrorCode.TaskDeadLettered, message: reason });
    this.#counts.deadLettered += 1;
    running.log?.error({ deliveries }, 'task dead-lettered');
    running.finish('term', 'dead_lettered', { deliveries });
  }

  /** Ends the task's actor with `error` without running it: whoever waits for it gets the error. */
  #endWith(task: Task, error: ErrorInfo): Promise<void> {
    return this.#recordEnd(task, failedResult(task.runId, error));
  }

  /** Records the run's end when `task` is its entry. */
  #finishRun(task: Task, result: AgentResult): Promise<void> {
    return task.depth === 0 ? finishRun(this.#store, this.#transport.records, task.runId, task.path, result) : Promise.resolve();
  }

  async #recordEnd(task: Task, result: AgentResult): Promise<void> {
    await this.#transport.records.end(task.runId, task.path, { ...task, graph: this.#hash }, result);
    await this.#finishRun(task, result);
  }
}
