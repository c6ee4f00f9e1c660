/**
 * Sub-agents on workers over NATS, on a real nats-server (started here), with workers in their own
 * processes (bench-worker.js):
 * Each figure is cold (the first run after the processes started) and warm (the median of later runs).
 * - round trip: a local lead delegates `--delegations` times in a row to a remote helper that
 *   answers at once; µs per delegation, next to a raw NATS request/reply to the same worker
 *   process on the same server. Warm is the median of `--runs` runs once 2,000 delegations have
 *   gone through both processes: one delegation every few milliseconds calls each function a few
 *   hundred times a second, so V8 is still compiling them for its optimizing tier through the first
 *   1,500 or so (CPU on its helper threads, and a round trip 20–40% slower). The raw request is
 *   measured warm too, after 200 requests. `after_two_warm_ups_…` is the median of the `--runs`
 *   runs after the first two, what a worker started a minute ago feels;
 * - throughput: `--tasks` remote tasks (turns of 100 concurrent delegations) through 1 and then 2
 *   workers; tasks per second, and the 2 workers' over the 1's (`over_one_worker`). Twice over:
 *   - CPU-bound: the helper answers at once, so the tasks are all CPU, of the coordinator,
 *     nats-server and the workers alike, and the machine's cores bound them (see below);
 *   - model-bound: the helper's model takes `--model-ms` (20) to answer and each worker hosts at most
 *     `--slots` (10) actors at once, as a worker of a real model waits on it with its concurrency
 *     capped: what a second worker adds there is its slots (`slot_bound_tasks_per_s` is the most
 *     the workers' slots allow);
 * - checkpoint bytes per turn of the lead (the store writes only what a turn added), for the
 *   first and the last tenth of its turns: they stay flat as the history grows;
 * - stored messages per delegation during the round-trip runs: every message the namespace's
 *   JetStream streams and KV buckets stored (their last sequence before and after, so a KV put
 *   that replaces a value and an acked task both count), in all and per stream;
 * - where the time goes (Linux, from /proc): CPU µs and write system calls per delegation of the
 *   coordinator (this process), the worker(s) and nats-server during the measured runs, and in the
 *   throughput runs each one's share of a core, the machine's load average, and the tasks per
 *   second the machine's cores could do at most at that CPU per task: a process near its core, or
 *   a machine whose cores are all busy, cannot go faster with more workers.
 *
 *   node dist/remote-delegation.js [--delegations 200] [--runs 5] [--tasks 1000] [--model-ms 20] [--slots 10] [--warm-up-delegations 2000]
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { availableParallelism, loadavg } from 'node:os';
import { createInterface } from 'node:readline';
import { createRuntime, type GraphConfig, type RunStore } from '@troupe/runtime';
import { connectNats, createNatsRunStore, createNatsTransport, graphHash, openNatsResources, type NatsResources } from '@troupe/nats';
import { startNatsServer } from '@troupe/nats/testing';
import { type DelegationShape, delegationGraph, timedRun } from './bench-graph.js';
import { median, numberArg, report, spread } from './measure.js';

const delegations = numberArg('delegations', 200);
const runs = numberArg('runs', 5);
const tasks = numberArg('tasks', 1000);
const modelMs = numberArg('model-ms', 20);
const slots = numberArg('slots', 10);
const PER_TURN = 100;
/** Delegations not counted in the warm figures while both processes' JIT settles (see above); a test sets fewer. */
const WARM_UP_DELEGATIONS = numberArg('warm-up-delegations', 2000);
/** Runs before the `after_two_warm_ups_…` figure. */
const EARLY_RUNS = 2;
/** Clock ticks per second of /proc's CPU times (USER_HZ, 100 on Linux). */
const TICKS_PER_S = 100;

const server = await startNatsServer();
const children: ChildProcess[] = [];
// Dying of an error (EPIPE, when the output goes to `head`) skips the `finally` below: no worker outlives us.
process.once('exit', () => {
  for (const child of children) child.kill('SIGKILL');
});
let namespaces = 0;

try {
  await roundTrip();
  await scaleOut();
  await scaleOut({ modelMs, slots });
} finally {
  for (const child of children) child.kill('SIGKILL');
  await server.stop();
}

async function roundTrip(): Promise<void> {
  const shape: DelegationShape = { turns: delegations, perTurn: 1, helperPlacement: 'remote' };
  const { resources, namespace, workerPids } = await deployment(shape, 1);
  const echo = `bench.${namespace}.echo`;
  for (let i = 0; i < 200; i++) await resources.nc.request(echo, 'x');
  const raw: number[] = [];
  for (let i = 0; i < 2000; i++) {
    const started = performance.now();
    await resources.nc.request(echo, 'x');
    raw.push((performance.now() - started) * 1000);
  }
  const lead: number[] = [];
  const perDelegation: number[] = [];
  const early: number[] = [];
  const warmUpRuns = Math.max(EARLY_RUNS, Math.ceil(WARM_UP_DELEGATIONS / delegations));
  let cold = 0;
  const processes = { coordinator: [process.pid], worker: workerPids, server: [server.pid] };
  let storedBefore = new Map<string, number>();
  let usageBefore: Usage = new Map();
  for (let i = 0; i < runs + warmUpRuns; i++) {
    if (i === warmUpRuns) {
      storedBefore = await storedMessages(resources);
      usageBefore = usageOf(processes);
    }
    // The lead's checkpoint bytes are counted in the run before the measured ones only: stringifying
    // each checkpoint again to count it would add to the coordinator's time in the measured runs.
    const turnBytes = i === warmUpRuns - 1 ? lead : undefined;
    const wall = await runOnce(resources, delegationGraph(shape), turnBytes);
    const us = (wall * 1000) / delegations;
    if (i === 0) cold = us;
    if (i >= EARLY_RUNS && i < EARLY_RUNS + runs) early.push(us);
    if (i >= warmUpRuns) perDelegation.push(us);
  }
  const used = usageSince(usageBefore, usageOf(processes), delegations * runs);
  const stored = perStream(storedBefore, await storedMessages(resources), delegations * runs);
  const tenth = Math.max(1, Math.floor(delegations / 10));
  const average = (values: number[]): number => Math.round(values.reduce((a, b) => a + b, 0) / Math.max(1, values.length));
  report({
    workload: 'remote-delegation-round-trip',
    delegations,
    runs,
    cold_us_per_delegation: Math.round(cold),
    after_two_warm_ups_us_per_delegation: Math.round(median(early)),
    after_two_warm_ups_us_per_delegation_runs: spread(early),
    us_per_delegation: Math.round(median(perDelegation)),
    us_per_delegation_runs: spread(perDelegation),
    raw_request_reply_us: Math.round(median(raw)),
    warm_over_raw: Math.round((median(perDelegation) / median(raw)) * 10) / 10,
    checkpoint_bytes_first_tenth: average(lead.slice(0, tenth)),
    checkpoint_bytes_last_tenth: average(lead.slice(-tenth)),
    stored_messages_per_delegation: stored.total,
    stored_messages_per_stream: stored.streams,
    cpu_us_per_delegation: used.cpuUs,
    write_syscalls_per_delegation: used.writes,
  });
  await resources.nc.close();
}

/** What bounds the model-bound runs: the helper's model time, and the slots of each worker. */
interface ModelBound {
  modelMs: number;
  slots: number;
}

/** The throughput runs through 1 and then 2 workers: CPU-bound, or `bound` by the model. */
async function scaleOut(bound?: ModelBound): Promise<void> {
  const one = await throughput(1, bound);
  await throughput(2, bound, one);
}

/** Reports the tasks per second of `workers` workers (and their ratio to `one`'s, if given) and returns it. */
async function throughput(workers: number, bound: ModelBound | undefined, one?: number): Promise<number> {
  const shape: DelegationShape = { turns: Math.ceil(tasks / PER_TURN), perTurn: PER_TURN, helperPlacement: 'remote', helperModelMs: bound?.modelMs ?? 0 };
  const { resources, workerPids } = await deployment(shape, workers, bound?.slots);
  const cold = await runOnce(resources, delegationGraph(shape));
  const walls: number[] = [];
  const processes = { coordinator: [process.pid], workers: workerPids, server: [server.pid] };
  const before = usageOf(processes);
  for (let i = 0; i < runs; i++) walls.push(await runOnce(resources, delegationGraph(shape)));
  const wall = walls.reduce((a, b) => a + b, 0);
  const total = shape.turns * shape.perTurn;
  const used = usageSince(before, usageOf(processes), total * runs, wall);
  const rates = walls.map((wall) => total / (wall / 1000));
  const rate = median(rates);
  report({
    workload: bound === undefined ? 'remote-throughput' : 'remote-throughput-model-bound',
    workers,
    tasks: total,
    runs,
    ...(bound === undefined
      ? {}
      : { model_ms: bound.modelMs, slots_per_worker: bound.slots, slot_bound_tasks_per_s: Math.round((workers * bound.slots * 1000) / bound.modelMs) }),
    cold_tasks_per_s: Math.round(total / (cold / 1000)),
    tasks_per_s: Math.round(rate),
    tasks_per_s_runs: spread(rates),
    ...(one === undefined ? {} : { over_one_worker: Math.round((rate / one) * 100) / 100 }),
    cpu_us_per_task: used.cpuUs,
    core_percent: used.corePercent,
    // The most this machine could do if every core were busy with this work alone and nothing
    // waited: its cores over the CPU all processes spent per task. Where the coordinator and
    // nats-server share the workers' cores, a second worker cannot go past it.
    cpu_bound_tasks_per_s: used.totalCpuUs === undefined ? 'n/a' : Math.round((availableParallelism() * 1e6) / used.totalCpuUs),
    load_average: `${loadavg()[0]!.toFixed(1)} on ${availableParallelism()} cores`,
  });
  await resources.nc.close();
  return rate;
}

/** Starts `workers` worker processes (of `slots` actors each, if given) for a fresh namespace and opens the coordinator's connection. */
async function deployment(
  shape: DelegationShape,
  workers: number,
  slots?: number,
): Promise<{ resources: NatsResources; namespace: string; workerPids: Array<number | undefined> }> {
  const namespace = `bench${++namespaces}`;
  const resources = await openNatsResources(await connectNats({ servers: server.url }), { namespace });
  const script = new URL('./bench-worker.js', import.meta.url).pathname;
  const workerPids = await Promise.all(
    Array.from({ length: workers }, async () => {
      const args = [script, '--url', server.url, '--ns', namespace, '--turns', String(shape.turns), '--per-turn', String(shape.perTurn)];
      args.push('--helper-model-ms', String(shape.helperModelMs ?? 0), ...(slots === undefined ? [] : ['--concurrency', String(slots)]));
      // Its stdin is a pipe from here: it ends when this process does, however it dies, and the worker exits then.
      const child = spawn(process.execPath, args, { stdio: ['pipe', 'pipe', 'inherit'] });
      children.push(child);
      const lines = createInterface({ input: child.stdout! });
      for await (const line of lines) if (line === 'ready') break;
      return child.pid;
    }),
  );
  return { resources, namespace, workerPids };
}

/** Processes by role (a role may have several, as the workers of a throughput run). */
type Roles = Record<string, Array<number | undefined>>;
/** CPU ms and write system calls so far of each process of each role; absent where /proc cannot tell (not Linux). */
type Usage = Map<string, Array<{ cpuMs: number; writes: number } | undefined>>;

/** What each process of `roles` has used so far, from /proc/<pid>/stat (utime + stime) and /proc/<pid>/io (syscw). */
function usageOf(roles: Roles): Usage {
  const usage: Usage = new Map();
  for (const [role, pids] of Object.entries(roles)) {
    usage.set(
      role,
      pids.map((pid) => {
        try {
          const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
          // Fields after the command name (which may hold spaces): utime and stime are the 12th and 13th.
          const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
          const writes = Number(/syscw: (\d+)/.exec(readFileSync(`/proc/${pid}/io`, 'utf8'))?.[1]);
          return { cpuMs: ((Number(fields[11]) + Number(fields[12])) * 1000) / TICKS_PER_S, writes };
        } catch {
          return undefined;
        }
      }),
    );
  }
  return usage;
}

/**
 * Per role, between `before` and `after`: CPU µs and write system calls per `count` (delegations
 * or tasks), and, given the `wallMs` they took, the percent of one core each process used (`+`
 * between the workers of a role). `n/a` where /proc could not tell.
 */
function usageSince(
  before: Usage,
  after: Usage,
  count: number,
  wallMs = 0,
): { cpuUs: string; writes: string; corePercent: string; totalCpuUs: number | undefined } {
  let totalCpuUs: number | undefined = 0;
  const cpuUs: string[] = [];
  const writes: string[] = [];
  const corePercent: string[] = [];
  for (const [role, now] of after) {
    const deltas = now.map((used, i) => {
      const was = before.get(role)?.[i];
      return used === undefined || was === undefined ? undefined : { cpuMs: used.cpuMs - was.cpuMs, writes: used.writes - was.writes };
    });
    const known = deltas.filter((delta) => delta !== undefined);
    if (known.length < deltas.length) {
      totalCpuUs = undefined;
      cpuUs.push(`${role} n/a`);
      writes.push(`${role} n/a`);
      corePercent.push(`${role} n/a`);
      continue;
    }
    const roleCpuUs = (known.reduce((sum, d) => sum + d.cpuMs, 0) * 1000) / count;
    if (totalCpuUs !== undefined) totalCpuUs += roleCpuUs;
    cpuUs.push(`${role} ${Math.round(roleCpuUs)}`);
    writes.push(`${role} ${round2(known.reduce((sum, d) => sum + d.writes, 0) / count)}`);
    if (wallMs > 0) corePercent.push(`${role} ${known.map((d) => Math.round((100 * d.cpuMs) / wallMs)).join('+')}`);
  }
  return { cpuUs: cpuUs.join(', '), writes: writes.join(', '), corePercent: corePercent.join(', '), totalCpuUs };
}

/** One run of `graph` with the coordinator's transport; ms of wall time. Records the lead's checkpoint bytes per turn in `turnBytes` if given. */
function runOnce(resources: NatsResources, graph: GraphConfig, turnBytes?: number[]): Promise<number> {
  const stored = createNatsRunStore(resources);
  const store = turnBytes === undefined ? stored : countingStore(stored, turnBytes);
  return timedRun(
    createRuntime({
      graph,
      store,
      transport: (parts) =>
        createNatsTransport({ ...parts, resources, graphHash: graphHash(graph), placement: (agent) => graph.agents[agent]?.placement ?? 'local' }),
    }),
  );
}

/** The last sequence of each stream of the namespace (KV buckets included): how many messages each has stored so far. */
async function storedMessages(resources: NatsResources): Promise<Map<string, number>> {
  const { names } = resources;
  const streams = [
    names.tasksStream,
    names.eventsStream,
    names.deadStream,
    ...[resources.runs, resources.actors, resources.heads, resources.messages, resources.children].map((bucket) => `KV_${bucket.name}`),
  ];
  const sequences = new Map<string, number>();
  for (const stream of streams) sequences.set(stream, (await resources.jsm.streams.info(stream)).state.last_seq);
  return sequences;
}

/** Messages stored between `before` and `after`, per `count` delegations: in all, and per stream (those that stored any). */
function perStream(before: Map<string, number>, after: Map<string, number>, count: number): { total: number; streams: string } {
  const parts: string[] = [];
  let total = 0;
  for (const [stream, last] of after) {
    const stored = last - (before.get(stream) ?? 0);
    total += stored;
    if (stored > 0) parts.push(`${stream.replace(/^KV_troupe_[^_]+_|^TROUPE_[^_]+_/, '').toLowerCase()} ${round2(stored / count)}`);
  }
  return { total: round2(total / count), streams: parts.join(', ') };
}

function round2(value: number): number {
  return Math.round(value * 100) / 100;
}

/** `store`, noting the bytes of each checkpoint of the lead (two a turn: tools started, turn ended). */
function countingStore(store: RunStore, turnBytes: number[]): RunStore {
  return new Proxy(store, {
    get(target, property) {
      if (property === 'saveCheckpoint') {
        return (id: Parameters<RunStore['saveCheckpoint']>[0], checkpoint: Parameters<RunStore['saveCheckpoint']>[1]) => {
          if (checkpoint.head.agentPath === 'lead') turnBytes.push(JSON.stringify(checkpoint.head).length + JSON.stringify(checkpoint.added).length);
          return target.saveCheckpoint(id, checkpoint);
        };
      }
      const value: unknown = Reflect.get(target, property, target);
      return typeof value === 'function' ? value.bind(target) : value;
    },
  });
}
