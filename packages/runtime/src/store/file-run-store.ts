import { rm } from 'node:fs/promises';
import { join, sep } from 'node:path';
import {
  parseAgentSnapshot,
  TroupeError,
  withHistory,
  type AgentCheckpoint,
  type AgentEvent,
  type AgentSnapshot,
  type Message,
  type RunId,
} from '@troupe/core';
import { isProcessAlive, processIdentity, type ProcessIdentity } from '../local/process-identity.js';
import { createFileToolProcessLedger } from '../local/tool-process-ledger.js';
import { RunStoreErrorCode } from '../runtime-error-codes.js';
import type { ChildRecord, RunRecord, RunStore } from './run-store.js';
import { fileCalls } from './file-calls.js';
import { releaseTakeover, sameProcess, takeOver } from './run-takeover.js';

/** The default directory of the file run store, relative to the working directory. */
export const DEFAULT_RUNS_DIR = '.troupe/runs';

/** The directory of run `id` in the runs directory `dir`. */
export function runDirOf(dir: string, id: RunId): string {
  return join(dir, encodeURIComponent(id));
}

/**
 * A run store in plain files, one directory per run:
 * `run.json` (the record), `events.jsonl` (one event per line, appended), `snapshots/<path>.json`
 * (each actor's latest checkpoint head), `messages/<path>.jsonl` (each actor's history, one message
 * per line, appended), `children.json` (the delegations), `process.json` (the process running
 * the run) and `processes/` (the process groups its tools run, see {@link ToolProcessLedger}).
 * The JSON files are replaced atomically (written aside, then renamed), so a crash never leaves
 * half a record. Writes of one run are chained, so they land in call order.
 *
 * The process that creates a run, or sets its status to `running` or `waiting`, is recorded as
 * the one running it (pid, host and start time). A `running` run whose process has ended without
 * ending it (it was killed) is read back as `interrupted`. Taking a run up from the process
 * recorded before (answering a waiting run, resuming an interrupted one) is exclusive: of two
 * processes doing so at once, the second gets `run_already_answered` (see `takeOver`).
 */
/** An actor's checkpoint waiting for its turn in its run's chain, and that write. */
interface QueuedCheckpoint extends Omit<AgentCheckpoint, 'mark'> {
  write: Promise<void>;
}

/** A change to a run's record. */
type RunPatch = Partial<Omit<RunRecord, 'id'>>;

/** What a queued update's `write` is for the moment before its write is chained. */
const SETTLED = Promise.resolve();

export function createFileRunStore(dir: string = DEFAULT_RUNS_DIR): RunStore {
  const { appendFile, mkdir, readdir, readFile, rename, writeFile } = fileCalls;
  const chains = new Map<string, Promise<void>>();
  const pendingEvents = new Map<string, AgentEvent[]>();
  /**
   * The files of each run that this store has appended to: a torn last line (from a killed writer)
   * was cut off before the first append. Kept while the run runs (its files are not looked at again
   * at every write) and forgotten once it waits or ends and its writes drain, so a long-lived
   * process keeps nothing per waiting or finished run: the next append looks at the last byte again.
   */
  const mended = new Map<string, Set<string>>();
  /**
   * The record of each run as this store last wrote it, kept while the run runs here or has writes
   * queued: an update applies its patch to it instead of reading `run.json` back (each read-back
   * was a few KB of garbage, twice per run on its way to wait). Forgotten once the run waits or
   * ends and its writes drain, so a waiting or finished run keeps nothing here, and the first
   * update after that (maybe by another process, which took the run up) reads the file again.
   */
  const records = new Map<string, RunRecord>();
  /**
   * Each run's record update that is queued and has not begun: a later update merges into it, so
   * updates made together (a status change and the run's progress) cost one write, not two.
   */
  const queuedUpdates = new Map<string, { patch: RunPatch; write: Promise<void> }>();
  /**
   * Each actor's checkpoint that is queued and has not begun, by run and path: a later checkpoint
   * of the same actor merges into it, so checkpoints made while the run's earlier writes are still
   * on their way (an actor that starts a tool, then waits for a user) write one head, not two.
   */
  const queuedCheckpoints = new Map<string, QueuedCheckpoint>();
  let identity: ProcessIdentity | undefined;
  /** This process's identity: looked up once (it reads `/proc`, synchronously), not at every status change. */
  const me = (): ProcessIdentity => (identity ??= processIdentity());
  /** The runs whose status this store last wrote as running. */
  const running = new Set<string>();
  const markRunning = (id: RunId, status: RunRecord['status']): void => {
    if (status === 'running') running.add(id);
    else running.delete(id);
  };

  // Paths are joined by hand below the normalised root (the strings `join` makes, without its
  // normalising pass: it was a fifth of what a hibernating run allocated on its way to sleep).
  const root = join(dir);
  const prefix = root === '.' ? '' : root.endsWith(sep) ? root : `${root}${sep}`;
  const runDir = (id: RunId): string => {
    const name = encodeURIComponent(id);
    return name === '.' || name === '..' ? runDirOf(dir, id) : `${prefix}${name}`;
  };
  /** `runDir(id)/name[/more]`, for names that are single segments. */
  const inRun = (id: RunId, name: string, more?: string): string =>
    more === undefined ? `${runDir(id)}${sep}${name}` : `${runDir(id)}${sep}${name}${sep}${more}`;
  /** Queues `op` after the run's earlier writes; a failed write does not block later ones. */
  const chain = (id: RunId, op: () => Promise<void>): Promise<void> => {
    const next = (chains.get(id) ?? Promise.resolve()).then(op);
    const settled = next.catch(() => undefined);
    chains.set(id, settled);
    // A run with nothing queued keeps no entry: a long-lived process writes many runs.
    void settled.then(() => {
      if (chains.get(id) !== settled) return;
      chains.delete(id);
      if (running.has(id)) return;
      mended.delete(id);
      records.delete(id);
    });
    return next;
  };
  const writeJson = async (file: string, value: unknown): Promise<void> => {
    const temp = `${file}.${process.pid}.tmp`;
    // Compact, and without a newline after it (appending one made a copy of the whole text): pretty-printed,
    // a record or a checkpoint head was several times the garbage, for nobody to read.
    await writeFile(temp, JSON.stringify(value));
    await rename(temp, file);
  };
  const readJson = async <T>(file: string): Promise<T | undefined> => {
    let text: string;
    try {
      text = await readFile(file, 'utf8');
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
      throw error;
    }
    try {
      return JSON.parse(text) as T;
    } catch (error) {
      throw new TroupeError(RunStoreErrorCode.Corrupt, `${file} is not valid JSON`, { cause: error });
    }
  };
  const record = async (id: RunId): Promise<RunRecord> => {
    const found = await readJson<RunRecord>(inRun(id, 'run.json'));
    if (found === undefined) throw new TroupeError(RunStoreErrorCode.UnknownRun, `unknown run ${id} (looked in ${dir})`);
    return found;
  };
  /** Records this process as the one running the run. */
  const claim = (id: RunId): Promise<void> => writeJson(inRun(id, 'process.json'), me());
  /** The record as readers see it: `interrupted` when it says `running` and no process runs it. */
  const reported = async (run: RunRecord | undefined): Promise<RunRecord | undefined> => {
    if (run?.status !== 'running') return run;
    const host = await readJson<ProcessIdentity>(inRun(run.id, 'process.json')).catch(() => undefined);
    return host === undefined || isProcessAlive(host) === false ? { ...run, status: 'interrupted' } : run;
  };
  /**
   * Appends whole lines to a file of run `id` (called in its chain), first cutting off a torn last
   * line left by a killed process, which the new lines would otherwise run into.
   */
  const appendLines = async (id: RunId, file: string, lines: string): Promise<void> => {
    let files = mended.get(id);
    if (files === undefined) {
      files = new Set();
      mended.set(id, files);
    }
    if (!files.has(file)) {
      await mendTornLine(file);
      files.add(file);
    }
    await appendFile(file, lines);
  };
  /** Writes a run's record, and keeps it while the run's chain goes on (see `records`). */
  const writeRecord = async (run: RunRecord): Promise<void> => {
    // Forgotten first: should the write fail, the next update reads what the file holds.
    records.delete(run.id);
    await writeJson(inRun(run.id, 'run.json'), run);
    records.set(run.id, run);
  };
  /** Applies `patch` to run `id`'s record (called in its chain). */
  const applyUpdate = async (id: RunId, patch: RunPatch): Promise<void> => {
    if (patch.status !== undefined) markRunning(id, patch.status);
    const before = records.get(id) ?? (await record(id));
    if (patch.status === 'running' || patch.status === 'waiting') {
      const host = await readJson<ProcessIdentity>(inRun(id, 'process.json')).catch(() => undefined);
      const mine = host !== undefined && sameProcess(host, me());
      // Another process recorded: this is a takeover (an answer, a resume), which only one may make.
      if (host !== undefined && !mine) await takeOver(runDir(id), id);
      // Its own run waits again: a new question, which any process may take up to answer.
      else if (patch.status === 'waiting' && before.status !== 'waiting') await releaseTakeover(runDir(id));
      // Already recorded as this process: rewriting the same identity would cost a file replace per status change.
      if (!mine) await claim(id);
    }
    // Object.assign, not a spread: a spread copy that gains fields (usage, turns) is a dictionary-mode object, three times the size.
    await writeRecord(Object.assign({}, before, patch));
  };
  /** Writes an actor's checkpoint (called in its run's chain): its added messages, then its head. */
  const writeCheckpoint = async (id: RunId, { head, from, added }: Omit<AgentCheckpoint, 'mark'>): Promise<void> => {
    const name = encodeURIComponent(head.agentPath);
    const lines = jsonLines(added);
    const history = inRun(id, 'messages', `${name}.jsonl`);
    // Append what the turn added; write the whole history only when it was replaced.
    if (from === 0) await writeFile(history, lines);
    else if (lines.length > 0) await appendLines(id, history, lines);
    await writeJson(inRun(id, 'snapshots', `${name}.json`), { ...head, historyLength: from + added.length });
  };
  const drainEvents = (id: RunId): Promise<void> =>
    chain(id, async () => {
      const lines = pendingEvents.get(id);
      // Taken out, not emptied: the next event starts a new burst and schedules its own write.
      pendingEvents.delete(id);
      if (lines === undefined || lines.length === 0) return;
      await appendLines(id, inRun(id, 'events.jsonl'), jsonLines(lines));
    });

  return {
    processes: createFileToolProcessLedger(runDir),
    createRun: (run) =>
      chain(run.id, async () => {
        markRunning(run.id, run.status);
        const snapshots = inRun(run.id, 'snapshots');
        const made = await mkdir(snapshots, { recursive: true });
        // Its folder is new (`mkdir` made more than the last segment): it has no events file yet,
        // so none with a torn line to look for at its first append.
        if (made !== undefined && made !== snapshots) mended.set(run.id, new Set([inRun(run.id, 'events.jsonl')]));
        await mkdir(inRun(run.id, 'messages'), { recursive: true });
        // First: a run.json without it would read as interrupted.
        await claim(run.id);
        await writeRecord(Object.assign({}, run));
      }),
    updateRun: (id, patch) => {
      const queued = queuedUpdates.get(id);
      // Two status changes stay two writes: each may take the run over or release it.
      if (queued !== undefined && (queued.patch.status === undefined || patch.status === undefined)) {
        Object.assign(queued.patch, patch);
        return queued.write;
      }
      const update = { patch: Object.assign({}, patch), write: SETTLED };
      queuedUpdates.set(id, update);
      update.write = chain(id, () => {
        // Begun: a later update queues behind it.
        if (queuedUpdates.get(id) === update) queuedUpdates.delete(id);
        return applyUpdate(id, update.patch);
      });
      return update.write;
    },
    getRun: async (id) => {
      await chains.get(id);
      return reported(await readJson<RunRecord>(inRun(id, 'run.json')));
    },
    listRuns: async () => {
      let names: string[];
      try {
        names = await readdir(dir);
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code === 'ENOENT') return [];
        throw error;
      }
      const runs = await Promise.all(names.map(async (name) => reported(await readJson<RunRecord>(join(dir, name, 'run.json')))));
      return runs.filter((run): run is RunRecord => run !== undefined).sort((a, b) => a.startedAt - b.startedAt);
    },
    appendEvent: (event) => {
      const lines = pendingEvents.get(event.runId);
      // Kept as they are: each line is built once, in the one string that is written.
      if (lines === undefined) pendingEvents.set(event.runId, [event]);
      else lines.push(event);
      // One append per burst of events, not one per event.
      if (lines === undefined) setImmediate(() => void drainEvents(event.runId).catch(() => undefined));
    },
    flush: (id) => drainEvents(id),
    readEvents: async (id) => {
      await drainEvents(id);
      let text: string;
      try {
        text = await readFile(inRun(id, 'events.jsonl'), 'utf8');
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code === 'ENOENT') return [];
        throw error;
      }
      return wholeLines(text).map((line) => JSON.parse(line) as AgentEvent);
    },
    saveCheckpoint: (id, { head, from, added }) => {
      const key = `${id}\n${head.agentPath}`;
      const queued = queuedCheckpoints.get(key);
      // The actor's last checkpoint is still queued: this one merges into it (its head replaces that one's, its messages follow), unless it leaves a gap.
      if (queued !== undefined && from <= queued.from + queued.added.length) {
        queued.head = head;
        if (from < queued.from) {
          queued.from = from;
          queued.added = added;
        } else queued.added = queued.added.slice(0, from - queued.from).concat(added);
        return queued.write;
      }
      const checkpoint: QueuedCheckpoint = { head, from, added, write: SETTLED };
      queuedCheckpoints.set(key, checkpoint);
      checkpoint.write = chain(id, () => {
        // Begun: a later checkpoint queues behind it.
        if (queuedCheckpoints.get(key) === checkpoint) queuedCheckpoints.delete(key);
        return writeCheckpoint(id, checkpoint);
      });
      return checkpoint.write;
    },
    loadSnapshots: async (id) => {
      await chains.get(id);
      await record(id);
      const names = await readdir(inRun(id, 'snapshots'));
      const snapshots: AgentSnapshot[] = [];
      for (const name of names.filter((n) => n.endsWith('.json'))) {
        const { historyLength, ...head } = (await readJson<AgentSnapshot & { historyLength: number }>(inRun(id, 'snapshots', name))) ?? {};
        const text = await readFile(inRun(id, 'messages', name.replace(/\.json$/, '.jsonl')), 'utf8').catch(() => '');
        // Lines past the head's length were appended by a checkpoint whose head never landed.
        const messages = wholeLines(text)
          .slice(0, historyLength)
          .map((line) => JSON.parse(line) as Message);
        snapshots.push(parseAgentSnapshot(withHistory(head as AgentSnapshot, messages)));
      }
      return snapshots;
    },
    saveChild: (id, child) =>
      chain(id, async () => {
        const file = inRun(id, 'children.json');
        const children = ((await readJson<ChildRecord[]>(file)) ?? []).filter((c) => !(c.parent === child.parent && c.toolCallId === child.toolCallId));
        children.push(child);
        await writeJson(file, children);
      }),
    child: async (id, parent, toolCallId) => {
      await chains.get(id);
      const children = (await readJson<ChildRecord[]>(inRun(id, 'children.json'))) ?? [];
      return children.find((c) => c.parent === parent && c.toolCallId === toolCallId);
    },
    children: async (id, parent) => {
      await chains.get(id);
      const children = (await readJson<ChildRecord[]>(inRun(id, 'children.json'))) ?? [];
      return parent === undefined ? children : children.filter((c) => c.parent === parent);
    },
    deleteRun: async (id) => {
      await drainEvents(id);
      await chain(id, async () => {
        await record(id);
        // The record first: a deletion cut short leaves no half run that still lists.
        await rm(inRun(id, 'run.json'));
        await rm(runDir(id), { recursive: true, force: true });
      });
    },
  };
}

/**
 * `values` as JSON lines, each ending in a newline, in one flat string made at once (a line with
 * its newline each, then joined, copied every line once more, and a whole batch of them lived in
 * memory across the writes before it).
 */
function jsonLines(values: readonly unknown[]): string {
  const lines = values.map((value) => JSON.stringify(value));
  // An empty last line: the text ends in a newline without appending one to it (another copy).
  lines.push('');
  return lines.join('\n');
}

/** The non-empty lines of `text` that end in a newline: a last line without one was torn by a killed writer. */
function wholeLines(text: string): string[] {
  return text
    .slice(0, text.lastIndexOf('\n') + 1)
    .split('\n')
    .filter((line) => line.length > 0);
}

/** Cuts off a torn last line (one without its newline) of `file`; reads only its last byte when it ends whole. A missing file is left alone. */
async function mendTornLine(file: string): Promise<void> {
  const { close, fstat, ftruncate, open, read, readFile } = fileCalls;
  const fd = await open(file, 'r+').catch(() => undefined);
  if (fd === undefined) return;
  try {
    const { size } = await fstat(fd);
    if (size === 0) return;
    const last = Buffer.alloc(1);
    await read(fd, last, 0, 1, size - 1);
    if (last[0] === 0x0a) return;
    // From the file's position, still its start: the read above was at an offset.
    const bytes = await readFile(fd);
    await ftruncate(fd, bytes.lastIndexOf(0x0a) + 1);
  } finally {
    await close(fd);
  }
}
