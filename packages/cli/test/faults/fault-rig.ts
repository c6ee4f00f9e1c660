/**
 * What the fault tests share, not a test: a real nats-server on a free loopback port, a fresh
 * namespace and workspace directory, `troupe` child processes that are all killed at the end
 * whatever happened, and a NATS connection of the test's own to read the run's store.
 */
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { textOf, type AgentPath, type AgentResult, type AssistantMessage, type RunId } from '@troupe/core';
import {
  connectNats,
  createNatsRunStore,
  kvKey,
  loadSnapshot,
  openNatsResources,
  type NatsConnection,
  type NatsResources,
  type NatsRunStore,
} from '@troupe/nats';
import { startNatsServer, type NatsServerProcess } from '@troupe/nats/testing';
import { afterEach, expect, vi } from 'vitest';
import { startTroupe, type RunningTroupe, type TroupeExit } from '../spawn-troupe.js';

/** The workspace directory's variable in the fault graphs (`workspace: ${FAULT_WORKSPACE}`). */
const WORKSPACE_VAR = 'FAULT_WORKSPACE';
/** The file where the children's `bash` appends one line per side effect. */
const EFFECTS_FILE = 'effects.txt';

/** A running fault scenario. */
export interface FaultRig {
  readonly server: NatsServerProcess;
  /** `--nats <url> --namespace <ns>`. */
  readonly nats: string[];
  readonly workspace: string;
  /** The test's own connection to the namespace. */
  readonly resources: NatsResources;
  readonly store: NatsRunStore;
  /** Starts `troupe …args` (the workspace in its environment); killed by {@link close} if still running. */
  start(args: readonly string[]): RunningTroupe;
  /** Starts `troupe worker <graph> --id <id> …flags` for each of `ids`; resolves once all say they are ready. */
  workers(graph: string, ids: readonly string[], flags?: readonly string[]): Promise<Map<string, RunningTroupe>>;
  /** Starts `troupe run <graph> --input Go. …flags` on the namespace; resolves once its run is recorded. */
  startRun(graph: string, flags?: readonly string[]): Promise<{ run: RunningTroupe; runId: RunId }>;
  /** Runs `troupe …args` to its end. */
  run(args: readonly string[]): Promise<TroupeExit>;
  /** SIGKILLs every process still running, closes the connection, stops the server, removes the workspace. */
  close(): Promise<void>;
}

let rigs = 0;

/** Starts a server and opens a fresh namespace on it. */
async function startFaultRig(): Promise<FaultRig> {
  const server = await startNatsServer();
  const namespace = `fault${process.pid}_${++rigs}`;
  const workspace = await mkdtemp(join(tmpdir(), 'troupe-fault-'));
  let nc: NatsConnection | undefined;
  let resources: NatsResources;
  try {
    nc = await connectNats({ servers: server.url });
    resources = await openNatsResources(nc, { namespace });
  } catch (error) {
    await nc?.close();
    await server.stop();
    await rm(workspace, { recursive: true, force: true });
    throw error;
  }
  const connection = nc;
  const store = createNatsRunStore(resources);
  const processes = new Set<RunningTroupe>();
  const nats = ['--nats', server.url, '--namespace', namespace];
  const start = (args: readonly string[]): RunningTroupe => {
    const started = startTroupe(args, { env: { [WORKSPACE_VAR]: workspace } });
    processes.add(started);
    return started;
  };
  return {
    server,
    nats,
    workspace,
    resources,
    store,
    start,
    workers: async (graph, ids, flags = []) => {
      const workers = new Map(ids.map((id) => [id, start(['worker', graph, ...nats, '--id', id, ...flags])]));
      await Promise.all([...workers.values()].map((worker) => worker.matching('stdout', /ready/)));
      return workers;
    },
    startRun: async (graph, flags = []) => {
      const run = start(['run', graph, '--input', 'Go.', ...nats, ...flags]);
      const runId = await vi
        .waitFor(() => onlyRun(store), { timeout: 30_000, interval: 100 })
        .catch((error: unknown) => {
          const { stdout, stderr } = run.written();
          const state = run.child.exitCode ?? run.child.signalCode ?? 'still running';
          throw new Error(`${error instanceof Error ? error.message : String(error)}; troupe run (${state}) wrote:\n${stdout}\n${stderr}`);
        });
      return { run, runId };
    },
    run: (args) => start(args).exited,
    close: async () => {
      await Promise.all(
        [...processes].map(async ({ child, exited }) => {
          if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
          await exited.catch(() => undefined);
        }),
      );
      await connection.close().catch(() => undefined);
      await server.stop();
      await rm(workspace, { recursive: true, force: true });
    },
  };
}

/** The lines the children appended to the effects file so far. */
export async function effectLines(rig: FaultRig): Promise<string[]> {
  const text = await readFile(join(rig.workspace, EFFECTS_FILE), 'utf8').catch(() => '');
  return text.split('\n').filter((line) => line !== '');
}

/** Gives each test of the calling file a rig of its own, closed after it whatever happened. Call it at the top of the file. */
export function useFaultRig(): () => Promise<FaultRig> {
  let current: FaultRig | undefined;
  afterEach(async () => {
    await current?.close();
    current = undefined;
  });
  return async () => (current = await startFaultRig());
}

/** The id of the namespace's only run. */
async function onlyRun(store: NatsRunStore): Promise<RunId> {
  const runs = await store.listRuns();
  if (runs.length !== 1) throw new Error(`expected one run, found ${runs.length}`);
  return (runs[0] as (typeof runs)[number]).id;
}

/** `lead/child#1` … `lead/child#<count>`: the children of the fault graphs' lead. */
export function childPaths(count: number): string[] {
  return Array.from({ length: count }, (_, i) => `lead/child#${i + 1}`);
}

/**
 * Resolves once every child of `children` is in its second turn: its side effect is written, the
 * turn that wrote it is checkpointed (a redelivered child must not run it again), and its record
 * names the worker running it (a worker says so only once a task has run a moment).
 */
export async function inSecondTurn(rig: FaultRig, runId: RunId, children: readonly string[]): Promise<void> {
  await vi.waitFor(
    async () => {
      expect(await effectLines(rig)).toHaveLength(children.length);
      for (const path of children) {
        expect(await checkpointedToolResult(rig, runId, path), path).toBe(true);
        expect(await actorRecord(rig, runId, path), path).toMatchObject({ status: 'running', host: expect.any(String) });
      }
    },
    { timeout: 60_000, interval: 250 },
  );
}

/** Of `workers` (by id), the one that runs the most of `children` now, by their actor records, with the children it runs. */
export async function busiestWorker(
  rig: FaultRig,
  runId: RunId,
  children: readonly string[],
  workers: ReadonlyMap<string, RunningTroupe>,
): Promise<{ id: string; worker: RunningTroupe; paths: string[] }> {
  const hosts = new Map<string, string[]>();
  for (const path of children) {
    const record = await actorRecord(rig, runId, path);
    if (record?.status === 'running' && record.host !== undefined) hosts.set(record.host, [...(hosts.get(record.host) ?? []), path]);
  }
  const [id, paths] = [...hosts].sort(([, a], [, b]) => b.length - a.length)[0] ?? ['', []];
  const worker = workers.get(id);
  if (worker === undefined) throw new Error(`no worker runs any of ${children.join(', ')}`);
  return { id, worker, paths };
}

/** What the actors bucket says about the actor at `path`. */
export async function actorRecord(rig: FaultRig, runId: RunId, path: string): Promise<{ status: string; host?: string; result?: AgentResult } | undefined> {
  const entry = await rig.resources.actors.get(kvKey(runId, path));
  return entry === null || entry.operation !== 'PUT' ? undefined : entry.json();
}

/** Whether the actor at `path` has stored a checkpoint holding the result of a tool call. */
async function checkpointedToolResult(rig: FaultRig, runId: RunId, path: string): Promise<boolean> {
  const snapshot = await loadSnapshot(rig.resources, runId, path);
  return snapshot?.context.messages.some((m) => m.role === 'toolResult') === true;
}

/** One delegation as the parent's history keeps it: its call, the child it ran, and the tool result. */
interface Delegation {
  callId: string;
  path: AgentPath;
  text: string;
  isError: boolean;
}

/**
 * The delegations in the history of the actor at `parent`, as stored in its latest checkpoint:
 * every tool call its model made, and every tool result, in order. A call answered twice, or an
 * answer to no call, shows up as a mismatch between `calls` and `results`.
 */
async function delegationsOf(rig: FaultRig, runId: RunId, parent: string): Promise<{ calls: string[]; results: Delegation[] }> {
  const snapshot = await loadSnapshot(rig.resources, runId, parent);
  const messages = snapshot?.context.messages ?? [];
  const calls = messages
    .filter((m): m is AssistantMessage => m.role === 'assistant')
    .flatMap((m) => m.content.flatMap((part) => (part.type === 'toolCall' ? [part.id] : [])));
  const results = messages.flatMap((m) =>
    m.role === 'toolResult' ? [{ callId: m.toolCallId, path: (m.details as { path: AgentPath }).path, text: textOf(m), isError: m.isError }] : [],
  );
  return { calls, results };
}

/**
 * Checks that the lead's history holds exactly one successful result per delegation, from the
 * children `children`, each answering `Answer <token>` with the token its own one `bash` turn
 * wrote, and that the effects file holds each of those tokens once: no result was lost or taken
 * twice, and no completed turn ran again.
 */
export async function expectAnsweredOnce(rig: FaultRig, runId: RunId, children: readonly string[]): Promise<void> {
  const { calls, results } = await delegationsOf(rig, runId, 'lead');
  expect(calls).toHaveLength(children.length);
  expect(results.map((r) => r.callId).sort()).toEqual([...calls].sort());
  expect(results.map((r) => r.path).sort()).toEqual([...children].sort());
  expect(results.filter((r) => r.isError)).toEqual([]);
  const lines = await effectLines(rig);
  expect(lines).toHaveLength(children.length);
  const tokens: string[] = [];
  for (const { path, text } of results) {
    const history = (await loadSnapshot(rig.resources, runId, path))?.context.messages ?? [];
    const written = history.filter((m) => m.role === 'toolResult').map(textOf);
    expect(written, `${path} ran its bash turn once`).toHaveLength(1);
    expect(text).toBe(`Answer ${written[0]}`);
    tokens.push(written[0] ?? '');
  }
  expect(tokens.sort()).toEqual([...lines].sort());
}

/** The JSON log lines of a `troupe` process's stderr whose message is `msg`, parsed. */
export function logLines(stderr: string, msg: string): Array<Record<string, unknown>> {
  return stderr
    .split('\n')
    .filter((line) => line.startsWith('{') && line.includes(`"msg":"${msg}"`))
    .map((line) => JSON.parse(line) as Record<string, unknown>);
}
