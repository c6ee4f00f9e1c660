import { readdirSync, readFileSync } from 'node:fs';
import { hostname } from 'node:os';

/**
 * Names one process on one machine, for another process to tell later whether it still runs:
 * its pid, the machine's host name, and (on Linux) its start time, which tells a process from a
 * later one that was given the same pid.
 */
export interface ProcessIdentity {
  pid: number;
  host: string;
  /** The kernel's start time of the process (Linux: clock ticks after boot); absent where the platform does not say. */
  start?: string;
}

/** What `/proc/<pid>/stat` says of a process. */
interface ProcStat {
  /** `R`, `S`, `Z` (a zombie: it has exited, its parent has not reaped it)… */
  state: string;
  pgrp: number;
  start: string;
}

/** `/proc/<pid>/stat`, or undefined where there is no such process (or no `/proc`). */
function procStat(pid: number): ProcStat | undefined {
  let text: string;
  try {
    text = readFileSync(`/proc/${pid}/stat`, 'utf8');
  } catch {
    return undefined;
  }
  // After the command name in parentheses (which may hold spaces): field 3 (state) onwards.
  const fields = text.slice(text.lastIndexOf(')') + 2).split(' ');
  return { state: fields[0] ?? '', pgrp: Number(fields[2]), start: fields[19] ?? '' };
}

const hasProc = (() => {
  try {
    readFileSync('/proc/self/stat');
    return true;
  } catch {
    return false;
  }
})();

/** The identity of process `pid` on this machine (of this process by default). */
export function processIdentity(pid: number = process.pid): ProcessIdentity {
  const start = procStat(pid)?.start;
  return start === undefined ? { pid, host: hostname() } : { pid, host: hostname(), start };
}

/**
 * Whether the process `identity` names still runs: `undefined` when this machine cannot tell (it
 * ran on another host). A zombie counts as ended, and so does a process with the same pid that
 * started at another time.
 */
export function isProcessAlive(identity: ProcessIdentity): boolean | undefined {
  if (identity.host !== hostname()) return undefined;
  if (hasProc) {
    const stat = procStat(identity.pid);
    return stat !== undefined && stat.state !== 'Z' && (identity.start === undefined || stat.start === identity.start);
  }
  return signalable(identity.pid);
}

/**
 * Whether any process of group `pgid` still runs (zombies do not count). Where there is no
 * `/proc`, whether the group can be signalled at all.
 */
export function isGroupAlive(pgid: number): boolean {
  if (!hasProc) return signalable(-pgid);
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    const stat = procStat(Number(name));
    if (stat !== undefined && stat.pgrp === pgid && stat.state !== 'Z') return true;
  }
  return false;
}

/** Whether signal 0 reaches `pid` (a negative pid: a group): it exists, whoever owns it. */
function signalable(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}
