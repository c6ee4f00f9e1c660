import { mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { RunId } from '@troupe/core';
import { isGroupAlive, isProcessAlive, processIdentity, type ProcessIdentity } from './process-identity.js';

/**
 * Keeps the process groups a run's tools start (`bash` runs each command as one) for as long as
 * they run, so that when the process running the run is killed — and cannot kill them itself —
 * the process that resumes the run ends what it left before any step runs again.
 *
 * Contract: `started` records synchronously (the group is known before the tool waits on it) and
 * never throws; the function it returns forgets the group. `reap` ends every recorded group of
 * the run that still runs on this machine (SIGTERM, then SIGKILL after the grace period), never a
 * process that merely reuses a recorded pid, and forgets them all; it resolves with the group ids
 * it ended.
 */
export interface ToolProcessLedger {
  started(runId: RunId, pgid: number): () => void;
  reap(runId: RunId, options?: { graceMs?: number }): Promise<number[]>;
}

/** How long a group is given between SIGTERM and SIGKILL, as `bash` gives a command it stops. */
const DEFAULT_GRACE_MS = 2000;
const POLL_MS = 20;

/**
 * A {@link ToolProcessLedger} in `processes/<pgid>.json` files (the leader's identity) under each
 * run's directory, `runDir(runId)`.
 */
export function createFileToolProcessLedger(runDir: (runId: RunId) => string): ToolProcessLedger {
  const folder = (runId: RunId): string => join(runDir(runId), 'processes');
  return {
    started(runId, pgid) {
      const file = join(folder(runId), `${pgid}.json`);
      try {
        mkdirSync(folder(runId), { recursive: true });
        writeFileSync(file, `${JSON.stringify(processIdentity(pgid))}\n`);
      } catch {
        // Not recorded: a killed process would leave this group behind, as it did before.
        return () => undefined;
      }
      return () => rmSync(file, { force: true });
    },
    async reap(runId, options = {}) {
      let names: string[];
      try {
        names = readdirSync(folder(runId)).filter((name) => name.endsWith('.json'));
      } catch {
        return [];
      }
      const ended: number[] = [];
      for (const name of names) {
        const file = join(folder(runId), name);
        const leader = readIdentity(file);
        if (leader !== undefined && isLeftBehind(leader)) {
          await endGroup(leader.pid, options.graceMs ?? DEFAULT_GRACE_MS);
          ended.push(leader.pid);
        }
        rmSync(file, { force: true });
      }
      return ended;
    },
  };
}

function readIdentity(file: string): ProcessIdentity | undefined {
  try {
    const value: unknown = JSON.parse(readFileSync(file, 'utf8'));
    const { pid, host, start } = (value ?? {}) as Partial<ProcessIdentity>;
    if (typeof pid !== 'number' || !Number.isInteger(pid) || pid <= 1 || typeof host !== 'string') return undefined;
    return typeof start === 'string' ? { pid, host, start } : { pid, host };
  } catch {
    return undefined;
  }
}

/**
 * Whether the group `leader` led still has processes to end. Its leader still running is enough;
 * a leader that ended leaves its group's id in use while members remain (the kernel gives no new
 * process a pid that is still a group's id). A live process with the leader's pid that started at
 * another time is someone else's: the group it led is long gone.
 */
function isLeftBehind(leader: ProcessIdentity): boolean {
  const alive = isProcessAlive(leader);
  if (alive === undefined) return false;
  if (alive) return true;
  if (isProcessAlive({ pid: leader.pid, host: leader.host }) === true) return false;
  return isGroupAlive(leader.pid);
}

async function endGroup(pgid: number, graceMs: number): Promise<void> {
  signalGroup(pgid, 'SIGTERM');
  if (await gone(pgid, graceMs)) return;
  signalGroup(pgid, 'SIGKILL');
  await gone(pgid, graceMs);
}

function signalGroup(pgid: number, signal: NodeJS.Signals): void {
  try {
    process.kill(-pgid, signal);
  } catch {
    // Already gone.
  }
}

/** Waits up to `ms` for every process of the group to be gone; whether they are. */
async function gone(pgid: number, ms: number): Promise<boolean> {
  const deadline = Date.now() + ms;
  while (isGroupAlive(pgid)) {
    if (Date.now() >= deadline) return false;
    await new Promise((resolve) => setTimeout(resolve, POLL_MS));
  }
  return true;
}
